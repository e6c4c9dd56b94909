/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Dynamic windows: MPI_Win_attach/detach and the origin-side region cache.
 *
 * Each rank's attached regions live in a table block it allocates with
 * UCX (so same-node peers map it): entries (base, length, serial, packed
 * key) sorted by base.  When the block is full, or a key does not fit
 * its entries, the owner copies the table into a new block (twice as
 * many entries, or larger ones) and publishes that block's address and
 * key in the descriptor in its state block; earlier blocks stay allocated
 * until the window is freed, so an origin still reading one reads valid
 * (if stale) memory and finds out by `gen`.  Every change happens between
 * two increments of the sequence counter `gen` in the descriptor (odd
 * while the owner edits).  An origin keeps a copy of each target's
 * entries, tagged with the generation it was read at.  Every operation
 * reads the target's `gen` (a load when the state block is mapped, one
 * 8-byte atomic otherwise); only when it changed are the descriptor and
 * the used entries read again.  Keys are unpacked on first use of each
 * region and kept across re-reads while the region stays.  Attach/detach
 * take no lock: readers retry while `gen` is odd or moved during their
 * read.
 */
#include "ompi_config.h"

#include <string.h>

#include "opal/runtime/opal_progress.h"
#include "opal/util/proc.h"
#include "opal/util/show_help.h"
#include "opal/sys/atomic.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "osc_rdma2_dynamic.h"
#include "osc_rdma2_exposed.h"
#include "osc_rdma2_overlap.h"
#include "osc_rdma2_completion.h"

/* Entries of the first table block (a few hundred bytes). */
#define MCA_OSC_RDMA2_DYN_FIRST 16
#define MCA_OSC_RDMA2_ENTRY_MAX (sizeof(mca_osc_rdma2_region_t) + MCA_OSC_RDMA2_RKEY_MAX)

struct mca_osc_rdma2_dyn_local_t {
    mca_osc_rdma2_regions_t *desc;  /* in our state block */
    char *table;                    /* current table block; NULL before the first attach */
    ucp_mem_h table_memh;
    size_t capacity;                /* its entries, */
    size_t entry_size;              /* of this size */
    ucp_mem_h *memh;                /* per entry, in table order: the region's registration */
    ucp_mem_h *retired;             /* earlier table blocks: origins may still read them */
    size_t nretired;
    uint32_t serial;                /* attaches so far */
};

static inline mca_osc_rdma2_region_t *mca_osc_rdma2_entry(const char *table, size_t entry_size,
                                                          size_t i)
{
    return (mca_osc_rdma2_region_t *) (table + i * entry_size);
}

/* Entries with base < addr (or base <= addr when upper) in a sorted table
 * of n. */
static inline size_t mca_osc_rdma2_dyn_bound(const char *table, size_t entry_size, size_t n,
                                             uint64_t addr, bool upper)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t b = mca_osc_rdma2_entry(table, entry_size, mid)->base;
        if (b < addr || (upper && b == addr)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* ---------------------------------------------------------------------- */
/* Target side                                                             */

static void mca_osc_rdma2_seq_begin(mca_osc_rdma2_regions_t *t)
{
    (void) mca_common_ompix_atomic_fetch_add_64(&t->gen, 1);     /* odd: editing */
    opal_atomic_wmb();
}

static void mca_osc_rdma2_seq_end(mca_osc_rdma2_regions_t *t)
{
    opal_atomic_wmb();
    (void) mca_common_ompix_atomic_fetch_add_64(&t->gen, 1);     /* even: stable */
}

int mca_osc_rdma2_dyn_init_local(mca_osc_rdma2_module_t *module, mca_osc_rdma2_regions_t *desc)
{
    module->dyn = calloc(1, sizeof(*module->dyn));
    if (NULL == module->dyn) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    module->dyn->desc = desc;
    return OMPI_SUCCESS;
}

/* Room for `capacity` entries in the owner's own arrays. */
static int mca_osc_rdma2_dyn_local_arrays(mca_osc_rdma2_dyn_local_t *d, size_t capacity)
{
    ucp_mem_h *memh = realloc(d->memh, capacity * sizeof(*memh));
    ucp_mem_h *retired;

    if (NULL == memh) return OMPI_ERR_OUT_OF_RESOURCE;
    d->memh = memh;
    retired = realloc(d->retired, (d->nretired + 1) * sizeof(*retired));
    if (NULL == retired) return OMPI_ERR_OUT_OF_RESOURCE;
    d->retired = retired;
    return OMPI_SUCCESS;
}

/* Replaces the table block by one of `capacity` entries of `entry_size`
 * bytes (both at least the current ones), copies the table and publishes
 * the new block. */
static int mca_osc_rdma2_dyn_grow(mca_osc_rdma2_dyn_local_t *d, size_t capacity,
                                  size_t entry_size)
{
    mca_osc_rdma2_regions_t *desc = d->desc;
    size_t bytes = capacity * entry_size, n = desc->count, i;
    void *packed = NULL;
    size_t packed_len = 0;
    ucp_mem_h memh;
    char *block;
    int ret;

    ret = mca_osc_rdma2_dyn_local_arrays(d, capacity);
    if (OMPI_SUCCESS != ret) return ret;
    ret = mca_common_ompix_ucx_mem_map(MCA_OSC_RDMA2_UCX, NULL, bytes, true, &memh,
                                       (void **) &block);
    if (OMPI_SUCCESS != ret) return OMPI_ERR_OUT_OF_RESOURCE;
    ret = mca_osc_rdma2_ucx_rkey_pack(memh, &packed, &packed_len);
    if (OMPI_SUCCESS != ret || packed_len > MCA_OSC_RDMA2_RKEY_MAX) {
        if (NULL != packed) ucp_rkey_buffer_release(packed);
        ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, memh);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    memset(block, 0, bytes);
    for (i = 0; i < n; ++i) {
        memcpy(block + i * entry_size, d->table + i * d->entry_size, d->entry_size);
    }
    mca_osc_rdma2_seq_begin(desc);
    desc->table = (uint64_t) (uintptr_t) block;
    desc->capacity = capacity;
    desc->entry_size = (uint32_t) entry_size;
    desc->rkey_len = (uint32_t) packed_len;
    memcpy(desc->rkey, packed, packed_len);
    mca_osc_rdma2_seq_end(desc);
    ucp_rkey_buffer_release(packed);
    if (NULL != d->table_memh) {
        d->retired[d->nretired++] = d->table_memh;
    }
    d->table = block;
    d->table_memh = memh;
    d->capacity = capacity;
    d->entry_size = entry_size;
    return OMPI_SUCCESS;
}

/* Room for one more region whose key is packed_len bytes. */
static int mca_osc_rdma2_dyn_reserve(mca_osc_rdma2_dyn_local_t *d, size_t packed_len)
{
    size_t need = (sizeof(mca_osc_rdma2_region_t) + packed_len + 7) & ~(size_t) 7;
    size_t capacity = d->capacity, entry_size = d->entry_size;

    if (d->desc->count == capacity) {
        capacity = capacity ? 2 * capacity : MCA_OSC_RDMA2_DYN_FIRST;
    }
    if (need > entry_size) {
        entry_size = need;
    }
    if (capacity == d->capacity && entry_size == d->entry_size) {
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_dyn_grow(d, capacity, entry_size);
}

/* Whether [b, b + len) meets one of the regions next to position pos; a
 * region of length 0 counts as one byte, so that its base is unique
 * (detach finds regions by base). */
static bool mca_osc_rdma2_dyn_overlaps(const mca_osc_rdma2_dyn_local_t *d, size_t pos,
                                       uint64_t b, uint64_t len)
{
    const mca_osc_rdma2_region_t *r;

    if (pos > 0) {
        r = mca_osc_rdma2_entry(d->table, d->entry_size, pos - 1);
        if (b - r->base < (r->len ? r->len : 1)) return true;
    }
    if (pos < d->desc->count) {
        r = mca_osc_rdma2_entry(d->table, d->entry_size, pos);
        if (r->base - b < (len ? len : 1)) return true;
    }
    return false;
}

/* Registers [base, base + len) and packs its key. */
static int mca_osc_rdma2_dyn_register(void *base, size_t len, ucp_mem_h *memh, void **packed,
                                      size_t *packed_len)
{
    void *mapped;
    int ret;

    *memh = NULL;
    *packed = NULL;
    *packed_len = 0;
    if (0 == len) return OMPI_SUCCESS;
    ret = mca_common_ompix_ucx_mem_map(MCA_OSC_RDMA2_UCX, base, len, false, memh, &mapped);
    if (OMPI_SUCCESS != ret) return OMPI_ERR_RMA_ATTACH;
    ret = mca_osc_rdma2_ucx_rkey_pack(*memh, packed, packed_len);
    if (OMPI_SUCCESS != ret || *packed_len > MCA_OSC_RDMA2_RKEY_MAX) {
        if (NULL != *packed) ucp_rkey_buffer_release(*packed);
        ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, *memh);
        return OMPI_ERR_RMA_ATTACH;
    }
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_attach(struct ompi_win_t *win, void *base, size_t len)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_dyn_local_t *d = module->dyn;
    uint64_t b = (uint64_t) (uintptr_t) base;
    size_t n, pos, packed_len, es;
    mca_osc_rdma2_region_t *r;
    ucp_mem_h memh;
    void *packed;
    int ret;

    if (MPI_WIN_FLAVOR_DYNAMIC != module->flavor) {
        return OMPI_ERR_RMA_FLAVOR;
    }
    n = d->desc->count;
    pos = mca_osc_rdma2_dyn_bound(d->table, d->entry_size, n, b, false);
    if (mca_osc_rdma2_dyn_overlaps(d, pos, b, len)) {
        opal_show_help("help-osc-rdma2.txt", "attach-overlap", true, base, len, win->w_name,
                       opal_process_info.nodename);
        return OMPI_ERR_RMA_ATTACH;
    }
    ret = mca_osc_rdma2_dyn_register(base, len, &memh, &packed, &packed_len);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_dyn_reserve(d, packed_len);
    /* before it is published: active messages may address it from then on */
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_exposed_add(module, base, len);
    if (OMPI_SUCCESS != ret) {
        if (NULL != packed) ucp_rkey_buffer_release(packed);
        if (NULL != memh) ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, memh);
        return ret;
    }
    es = d->entry_size;                         /* the block may have changed */
    r = mca_osc_rdma2_entry(d->table, es, pos);
    /* before the region is published: see osc_rdma2_overlap.c */
    mca_osc_rdma2_overlap_claim(base, len);
    mca_osc_rdma2_seq_begin(d->desc);
    memmove((char *) r + es, r, (n - pos) * es);
    memset(r, 0, es);
    r->base = b;
    r->len = len;
    r->serial = ++d->serial;
    r->rkey_len = (uint32_t) packed_len;
    if (packed_len > 0) memcpy(r->rkey, packed, packed_len);
    d->desc->count = n + 1;
    mca_osc_rdma2_seq_end(d->desc);
    memmove(&d->memh[pos + 1], &d->memh[pos], (n - pos) * sizeof(*d->memh));
    d->memh[pos] = memh;
    if (NULL != packed) ucp_rkey_buffer_release(packed);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_detach(struct ompi_win_t *win, const void *base)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_dyn_local_t *d = module->dyn;
    uint64_t b = (uint64_t) (uintptr_t) base;
    size_t n, pos, es = d->entry_size;
    mca_osc_rdma2_region_t *r;
    ucp_mem_h memh;

    if (MPI_WIN_FLAVOR_DYNAMIC != module->flavor) {
        return OMPI_ERR_RMA_FLAVOR;
    }
    n = d->desc->count;
    pos = mca_osc_rdma2_dyn_bound(d->table, es, n, b, false);
    r = mca_osc_rdma2_entry(d->table, es, pos);
    if (pos == n || r->base != b) {
        return OMPI_ERR_RMA_ATTACH;     /* not attached */
    }
    mca_osc_rdma2_seq_begin(d->desc);
    memmove(r, (char *) r + es, (n - pos - 1) * es);
    d->desc->count = n - 1;
    mca_osc_rdma2_seq_end(d->desc);
    mca_osc_rdma2_exposed_remove(module, base);
    memh = d->memh[pos];
    memmove(&d->memh[pos], &d->memh[pos + 1], (n - pos - 1) * sizeof(*d->memh));
    if (NULL != memh) {
        ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, memh);
    }
    return OMPI_SUCCESS;
}

void mca_osc_rdma2_dyn_release_local(mca_osc_rdma2_module_t *module)
{
    mca_osc_rdma2_dyn_local_t *d = module->dyn;
    ucp_context_h ctx = MCA_OSC_RDMA2_UCX->context;
    size_t i;

    if (NULL == d) return;
    for (i = 0; i < d->desc->count; ++i) {
        if (NULL != d->memh[i]) ucp_mem_unmap(ctx, d->memh[i]);
    }
    for (i = 0; i < d->nretired; ++i) {
        ucp_mem_unmap(ctx, d->retired[i]);
    }
    if (NULL != d->table_memh) ucp_mem_unmap(ctx, d->table_memh);
    free(d->memh);
    free(d->retired);
    free(d);
    module->dyn = NULL;
}

/* ---------------------------------------------------------------------- */
/* Origin side                                                             */

static void mca_osc_rdma2_cache_drop_table(mca_osc_rdma2_dyn_cache_t *c)
{
    if (NULL != c->table.rkey) {
        ucp_rkey_destroy(c->table.rkey);
    }
    memset(&c->table, 0, sizeof(c->table));
    c->capacity = 0;
}

void mca_osc_rdma2_dyn_release_peer(mca_osc_rdma2_peer_t *peer)
{
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;
    size_t i;

    if (NULL == c) return;
    for (i = 0; i < c->count; ++i) {
        if (NULL != c->mem[i].rkey) ucp_rkey_destroy(c->mem[i].rkey);
    }
    mca_osc_rdma2_cache_drop_table(c);
    free(c->region);
    free(c->mem);
    free(c->next_region);
    free(c->next_mem);
    free(c);
    peer->dyn = NULL;
}

static int mca_osc_rdma2_cache_create(mca_osc_rdma2_peer_t *peer)
{
    mca_osc_rdma2_dyn_cache_t *c = calloc(1, sizeof(*c));

    if (NULL == c) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    c->gen = 1;                 /* odd: never a stable generation */
    peer->dyn = c;
    return OMPI_SUCCESS;
}

/* Room for n entries of the current table block in the next copy (and
 * for n paths in both path arrays; the current ones keep their contents). */
static int mca_osc_rdma2_cache_reserve(mca_osc_rdma2_dyn_cache_t *c, size_t n)
{
    size_t bytes = n * c->table_entry_size;
    void *p;

    if (bytes > c->region_bytes) {
        /* both copies alike: they are swapped after each read */
        p = realloc(c->next_region, 2 * bytes);
        if (NULL == p) return OMPI_ERR_OUT_OF_RESOURCE;
        c->next_region = p;
        p = realloc(c->region, 2 * bytes);
        if (NULL == p) return OMPI_ERR_OUT_OF_RESOURCE;
        c->region = p;
        c->region_bytes = 2 * bytes;
    }
    if (n > c->mem_alloc) {
        p = realloc(c->next_mem, 2 * n * sizeof(*c->mem));
        if (NULL == p) return OMPI_ERR_OUT_OF_RESOURCE;
        c->next_mem = p;
        p = realloc(c->mem, 2 * n * sizeof(*c->mem));
        if (NULL == p) return OMPI_ERR_OUT_OF_RESOURCE;
        c->mem = p;
        c->mem_alloc = 2 * n;
    }
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_read_gen(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                  uint64_t *gen)
{
    return peer->state.path->load(peer, &peer->state,
                                  module->layout.regions + offsetof(mca_osc_rdma2_regions_t, gen),
                                  gen);
}

/* Switches to the table block a (validated) descriptor names. */
static int mca_osc_rdma2_cache_table(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                     const mca_osc_rdma2_regions_t *desc)
{
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;
    int ret = OMPI_SUCCESS;

    mca_osc_rdma2_cache_drop_table(c);
    if (desc->entry_size < sizeof(mca_osc_rdma2_region_t) ||
        desc->entry_size > MCA_OSC_RDMA2_ENTRY_MAX + 7 || desc->rkey_len > MCA_OSC_RDMA2_RKEY_MAX ||
        (peer->rank != module->my_rank && 0 == desc->rkey_len)) {
        return OMPI_ERROR;
    }
    if (peer->rank == module->my_rank) {
        c->table.ptr = (char *) (uintptr_t) desc->table;       /* our own block */
    } else {
        ret = mca_osc_rdma2_peer_unpack(peer, desc->rkey, desc->rkey_len, desc->table,
                                        &c->table.rkey, &c->table.ptr);
    }
    if (OMPI_SUCCESS == ret) {
        c->table.base = desc->table;
        c->table.path = mca_osc_rdma2_peer_state_path(c->table.ptr);
        c->capacity = desc->capacity;
        c->table_entry_size = desc->entry_size;
    }
    return ret;
}

/* Makes the n entries just read (next_region) the cache of generation
 * gen: regions that stayed keep their key and path, the keys of the
 * others are destroyed, after our operations that may use them completed. */
static int mca_osc_rdma2_cache_merge(mca_osc_rdma2_peer_t *peer, size_t n, uint64_t gen)
{
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;
    size_t i = 0, j, es = c->entry_size, nes = c->table_entry_size;
    bool drop = false;
    void *swap;
    int ret = OMPI_SUCCESS;

    for (j = 0; j < n; ++j) {       /* both sorted by base */
        const mca_osc_rdma2_region_t *r = mca_osc_rdma2_entry(c->next_region, nes, j), *o;
        while (i < c->count && mca_osc_rdma2_entry(c->region, es, i)->base < r->base) {
            drop |= NULL != c->mem[i++].rkey;
        }
        o = i < c->count ? mca_osc_rdma2_entry(c->region, es, i) : NULL;
        if (NULL != o && o->base == r->base && o->len == r->len && o->serial == r->serial) {
            c->next_mem[j] = c->mem[i];
            c->mem[i++].rkey = NULL;    /* moved */
        } else {
            memset(&c->next_mem[j], 0, sizeof(c->next_mem[j]));
        }
    }
    for (; i < c->count; ++i) {
        drop |= NULL != c->mem[i].rkey;
    }
    if (drop) {
        ret = mca_osc_rdma2_complete_peer(peer);
        for (i = 0; i < c->count; ++i) {
            if (NULL != c->mem[i].rkey) ucp_rkey_destroy(c->mem[i].rkey);
        }
    }
    swap = c->region; c->region = c->next_region; c->next_region = swap;
    swap = c->mem; c->mem = c->next_mem; c->next_mem = swap;
    c->count = n;
    c->entry_size = nes;
    c->gen = gen;
    return ret;
}

static int mca_osc_rdma2_cache_refresh(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
{
    const size_t head = offsetof(mca_osc_rdma2_regions_t, count);
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;
    mca_osc_rdma2_regions_t desc;
    uint64_t g1, g2;
    int ret;

    for (;;) {
        ret = mca_osc_rdma2_read_gen(module, peer, &g1);
        if (OMPI_SUCCESS != ret || g1 == c->gen) return ret;
        if (g1 & 1) {           /* the owner is editing */
            opal_progress();
            continue;
        }
        ret = peer->state.path->read(peer, &peer->state, module->layout.regions + head,
                                     (char *) &desc + head, sizeof(desc) - head);
        if (OMPI_SUCCESS == ret && desc.table != c->table.base) {
            /* a new block: its key is unpacked only once we know it is not torn */
            ret = mca_osc_rdma2_read_gen(module, peer, &g2);
            if (OMPI_SUCCESS != ret) return ret;
            if (g1 != g2) continue;
            ret = mca_osc_rdma2_cache_table(module, peer, &desc);
        }
        if (OMPI_SUCCESS == ret && desc.count > c->capacity) {
            ret = mca_osc_rdma2_read_gen(module, peer, &g2);
            if (OMPI_SUCCESS == ret && g1 != g2) continue;          /* torn */
            return OMPI_SUCCESS != ret ? ret : OMPI_ERROR;
        }
        if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_cache_reserve(c, desc.count);
        if (OMPI_SUCCESS == ret && desc.count > 0) {
            ret = c->table.path->read(peer, &c->table, 0, c->next_region,
                                      desc.count * c->table_entry_size);
        }
        if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_read_gen(module, peer, &g2);
        if (OMPI_SUCCESS != ret) return ret;
        if (g1 == g2) {
            return mca_osc_rdma2_cache_merge(peer, desc.count, g1);
        }
    }
}

/* Sets up entry i on its first use: its key, its mapping and its path. */
static int mca_osc_rdma2_region_mem(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                    size_t i)
{
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;
    const mca_osc_rdma2_region_t *r = mca_osc_rdma2_entry(c->region, c->entry_size, i);
    mca_osc_rdma2_win_mem_t *mem = &c->mem[i];
    int ret;

    mem->base = r->base;
    mem->size = r->len;
    if (peer->rank == module->my_rank) {
        mem->ptr = (char *) (uintptr_t) r->base;        /* our own memory */
    } else if (0 != r->rkey_len) {
        if (r->rkey_len > c->entry_size - sizeof(*r)) return OMPI_ERROR;
        ret = mca_osc_rdma2_peer_unpack(peer, r->rkey, r->rkey_len, r->base, &mem->rkey,
                                        &mem->ptr);
        if (OMPI_SUCCESS != ret) return ret;
    }
    mem->path = mca_osc_rdma2_peer_win_path(peer, mem->ptr);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_dyn_lookup(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                             uint64_t addr, uint64_t len, const mca_osc_rdma2_win_mem_t **mem)
{
    mca_osc_rdma2_dyn_cache_t *c;
    const mca_osc_rdma2_region_t *r;
    uint64_t gen;
    size_t i;
    int ret;

    if (NULL == peer->dyn && OMPI_SUCCESS != (ret = mca_osc_rdma2_cache_create(peer))) {
        return ret;
    }
    c = peer->dyn;
    /* the common case inline: the table did not change */
    if (NULL != peer->state.ptr) {
        gen = mca_common_ompix_atomic_load_acq_64(
            (volatile uint64_t *) (peer->state.ptr + module->layout.regions +
                                   offsetof(mca_osc_rdma2_regions_t, gen)));
    } else if (OMPI_SUCCESS != (ret = mca_osc_rdma2_read_gen(module, peer, &gen))) {
        return ret;
    }
    if (OPAL_UNLIKELY(gen != c->gen) &&
        OMPI_SUCCESS != (ret = mca_osc_rdma2_cache_refresh(module, peer))) {
        return ret;
    }
    i = mca_osc_rdma2_dyn_bound(c->region, c->entry_size, c->count, addr, true);
    if (0 == i) {
        return OMPI_ERR_RMA_RANGE;      /* below every attached region */
    }
    r = mca_osc_rdma2_entry(c->region, c->entry_size, --i);
    if (addr - r->base > r->len || len > r->len - (addr - r->base)) {
        return OMPI_ERR_RMA_RANGE;      /* not inside one attached region */
    }
    *mem = &c->mem[i];
    if (OPAL_LIKELY(NULL != c->mem[i].path)) {
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_region_mem(module, peer, i);
}
