/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Dynamic windows: MPI_Win_attach/detach and the origin-side region cache.
 *
 * Each rank's attached regions live in a table block it allocates with
 * UCX (so same-node peers map it): entries (base, length, key slot,
 * serial) sorted by base, then one key slot per entry holding the
 * region's packed key.  When the block is full (or a key does not fit a
 * slot) the owner copies it into one twice as large and publishes that
 * block's address and key in the descriptor in its state block; earlier
 * blocks stay allocated until the window is freed, so an origin still
 * reading one reads valid (if stale) memory and finds out by `gen`.
 * Every change happens between two increments of the sequence counter
 * `gen` in the descriptor (odd while the owner edits).  An origin keeps a
 * copy of each target's entries, tagged with the generation it was read
 * at.  Every operation reads the target's `gen` (a load when the state
 * block is mapped, one 8-byte atomic otherwise); only when it changed are
 * the descriptor and the used entries read again.  Keys are read and
 * unpacked on first use of each region and kept across re-reads while the
 * region stays.  Attach/detach take no lock: readers retry while `gen` is
 * odd or moved during their read.
 */
#include "ompi_config.h"

#include <string.h>

#include "opal/runtime/opal_progress.h"
#include "opal/util/proc.h"
#include "opal/util/show_help.h"
#include "opal/sys/atomic.h"

#include "ompi/mca/common/ompix/common_ompix_atomic.h"

#include "osc_rdma2_dynamic.h"
#include "osc_rdma2_overlap.h"
#include "osc_rdma2_completion.h"

/* Entries of the first table block: with the key slots of registered
 * memory (a few dozen bytes) it fills about a page. */
#define MCA_OSC_RDMA2_DYN_FIRST 16
#define MCA_OSC_RDMA2_DYN_LINE 64
/* A key slot: its length, then the packed key. */
#define MCA_OSC_RDMA2_SLOT_HEAD sizeof(uint32_t)
#define MCA_OSC_RDMA2_SLOT_MAX (MCA_OSC_RDMA2_SLOT_HEAD + MCA_OSC_RDMA2_RKEY_MAX)

struct mca_osc_rdma2_dyn_local_t {
    mca_osc_rdma2_regions_t *desc;  /* in our state block */
    char *table;                    /* current table block; NULL before the first attach */
    ucp_mem_h table_memh;
    size_t capacity;                /* its entries and key slots */
    size_t slot_size;
    ucp_mem_h *slot_memh;           /* per key slot: its region's registration, or NULL */
    uint32_t *free_slot;            /* stack of the unused slots */
    size_t nfree;
    ucp_mem_h *retired;             /* earlier table blocks: origins may still read them */
    size_t nretired;
    uint32_t serial;                /* attaches so far */
};

static size_t mca_osc_rdma2_slots_off(size_t capacity)
{
    size_t off = capacity * sizeof(mca_osc_rdma2_region_t);
    return (off + MCA_OSC_RDMA2_DYN_LINE - 1) & ~(size_t) (MCA_OSC_RDMA2_DYN_LINE - 1);
}

static size_t mca_osc_rdma2_slot_off(size_t capacity, size_t slot_size, size_t slot)
{
    return mca_osc_rdma2_slots_off(capacity) + slot * slot_size;
}

/* Entries with base < addr (lower) or base <= addr (upper), in a sorted
 * table of n. */
static inline size_t mca_osc_rdma2_dyn_bound(const mca_osc_rdma2_region_t *r, size_t n,
                                             uint64_t addr, bool upper)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid].base < addr || (upper && r[mid].base == addr)) {
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

/* Room for `capacity` slots in the owner's own arrays. */
static int mca_osc_rdma2_dyn_local_arrays(mca_osc_rdma2_dyn_local_t *d, size_t capacity)
{
    ucp_mem_h *memh = realloc(d->slot_memh, capacity * sizeof(*memh));
    uint32_t *free_slot;
    ucp_mem_h *retired;

    if (NULL == memh) return OMPI_ERR_OUT_OF_RESOURCE;
    d->slot_memh = memh;
    memset(memh + d->capacity, 0, (capacity - d->capacity) * sizeof(*memh));
    free_slot = realloc(d->free_slot, capacity * sizeof(*free_slot));
    if (NULL == free_slot) return OMPI_ERR_OUT_OF_RESOURCE;
    d->free_slot = free_slot;
    retired = realloc(d->retired, (d->nretired + 1) * sizeof(*retired));
    if (NULL == retired) return OMPI_ERR_OUT_OF_RESOURCE;
    d->retired = retired;
    return OMPI_SUCCESS;
}

/* Replaces the table block by one of `capacity` entries and slots of
 * `slot_size` bytes (both at least the current ones), copies the table
 * and the slots, and publishes it. */
static int mca_osc_rdma2_dyn_grow(mca_osc_rdma2_dyn_local_t *d, size_t capacity,
                                  size_t slot_size)
{
    mca_osc_rdma2_regions_t *desc = d->desc;
    size_t bytes = mca_osc_rdma2_slot_off(capacity, slot_size, capacity), i;
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
    if (NULL != d->table) {
        memcpy(block, d->table, desc->count * sizeof(mca_osc_rdma2_region_t));
        for (i = 0; i < d->capacity; ++i) {     /* slot numbers stay */
            memcpy(block + mca_osc_rdma2_slot_off(capacity, slot_size, i),
                   d->table + mca_osc_rdma2_slot_off(d->capacity, d->slot_size, i),
                   d->slot_size);
        }
    }
    for (i = capacity; i-- > d->capacity;) {    /* lowest slot on top */
        d->free_slot[d->nfree++] = (uint32_t) i;
    }
    mca_osc_rdma2_seq_begin(desc);
    desc->table = (uint64_t) (uintptr_t) block;
    desc->capacity = capacity;
    desc->slot_size = (uint32_t) slot_size;
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
    d->slot_size = slot_size;
    return OMPI_SUCCESS;
}

/* Whether [b, b + len) meets a region next to position pos; a region of
 * length 0 counts as one byte, so that its base is unique (detach finds
 * regions by base). */
static bool mca_osc_rdma2_dyn_overlaps(const mca_osc_rdma2_region_t *r, size_t n, size_t pos,
                                       uint64_t b, uint64_t len)
{
    if (pos > 0 && b - r[pos - 1].base < (r[pos - 1].len ? r[pos - 1].len : 1)) {
        return true;
    }
    return pos < n && r[pos].base - b < (len ? len : 1);
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

/* Room for one more region whose key is packed_len bytes. */
static int mca_osc_rdma2_dyn_reserve(mca_osc_rdma2_dyn_local_t *d, size_t packed_len)
{
    size_t need = (MCA_OSC_RDMA2_SLOT_HEAD + packed_len + 7) & ~(size_t) 7;
    size_t capacity = d->capacity, slot_size = d->slot_size;

    if (0 == d->nfree) {
        capacity = capacity ? 2 * capacity : MCA_OSC_RDMA2_DYN_FIRST;
    }
    if (need > slot_size) {
        slot_size = need;
    }
    if (capacity == d->capacity && slot_size == d->slot_size) {
        return OMPI_SUCCESS;
    }
    return mca_osc_rdma2_dyn_grow(d, capacity, slot_size);
}

int mca_osc_rdma2_attach(struct ompi_win_t *win, void *base, size_t len)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_dyn_local_t *d = module->dyn;
    uint64_t b = (uint64_t) (uintptr_t) base;
    size_t n, pos, packed_len;
    mca_osc_rdma2_region_t *r;
    ucp_mem_h memh;
    void *packed;
    uint32_t slot, klen;
    char *s;
    int ret;

    if (MPI_WIN_FLAVOR_DYNAMIC != module->flavor) {
        return OMPI_ERR_RMA_FLAVOR;
    }
    n = d->desc->count;
    r = (mca_osc_rdma2_region_t *) d->table;
    pos = NULL == r ? 0 : mca_osc_rdma2_dyn_bound(r, n, b, false);
    if (NULL != r && mca_osc_rdma2_dyn_overlaps(r, n, pos, b, len)) {
        opal_show_help("help-osc-rdma2.txt", "attach-overlap", true, base, len, win->w_name,
                       opal_process_info.nodename);
        return OMPI_ERR_RMA_ATTACH;
    }
    ret = mca_osc_rdma2_dyn_register(base, len, &memh, &packed, &packed_len);
    if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_dyn_reserve(d, packed_len);
    if (OMPI_SUCCESS != ret) {
        if (NULL != packed) ucp_rkey_buffer_release(packed);
        if (NULL != memh) ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, memh);
        return ret;
    }
    r = (mca_osc_rdma2_region_t *) d->table;   /* may have moved */
    slot = d->free_slot[--d->nfree];
    s = d->table + mca_osc_rdma2_slot_off(d->capacity, d->slot_size, slot);
    klen = (uint32_t) packed_len;
    /* before the region is published: see osc_rdma2_overlap.c */
    mca_osc_rdma2_overlap_claim(base, len);
    mca_osc_rdma2_seq_begin(d->desc);
    memcpy(s, &klen, sizeof(klen));
    if (packed_len > 0) memcpy(s + MCA_OSC_RDMA2_SLOT_HEAD, packed, packed_len);
    memmove(&r[pos + 1], &r[pos], (n - pos) * sizeof(*r));
    r[pos].base = b;
    r[pos].len = len;
    r[pos].slot = slot;
    r[pos].serial = ++d->serial;
    d->desc->count = n + 1;
    mca_osc_rdma2_seq_end(d->desc);
    d->slot_memh[slot] = memh;
    if (NULL != packed) ucp_rkey_buffer_release(packed);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_detach(struct ompi_win_t *win, const void *base)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_dyn_local_t *d = module->dyn;
    mca_osc_rdma2_region_t *r = (mca_osc_rdma2_region_t *) d->table;
    uint64_t b = (uint64_t) (uintptr_t) base;
    size_t n, pos;
    uint32_t slot;
    ucp_mem_h memh;

    if (MPI_WIN_FLAVOR_DYNAMIC != module->flavor) {
        return OMPI_ERR_RMA_FLAVOR;
    }
    n = d->desc->count;
    pos = NULL == r ? 0 : mca_osc_rdma2_dyn_bound(r, n, b, false);
    if (pos == n || r[pos].base != b) {
        return OMPI_ERR_RMA_ATTACH;     /* not attached */
    }
    slot = r[pos].slot;
    mca_osc_rdma2_seq_begin(d->desc);
    memmove(&r[pos], &r[pos + 1], (n - pos - 1) * sizeof(*r));
    d->desc->count = n - 1;
    mca_osc_rdma2_seq_end(d->desc);
    memh = d->slot_memh[slot];
    d->slot_memh[slot] = NULL;
    d->free_slot[d->nfree++] = slot;
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
    for (i = 0; i < d->capacity; ++i) {
        if (NULL != d->slot_memh[i]) ucp_mem_unmap(ctx, d->slot_memh[i]);
    }
    for (i = 0; i < d->nretired; ++i) {
        ucp_mem_unmap(ctx, d->retired[i]);
    }
    if (NULL != d->table_memh) ucp_mem_unmap(ctx, d->table_memh);
    free(d->slot_memh);
    free(d->free_slot);
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

/* Room for n entries in the four arrays (the first two keep their
 * contents). */
static int mca_osc_rdma2_cache_reserve(mca_osc_rdma2_dyn_cache_t *c, size_t n)
{
    size_t alloc = c->alloc ? c->alloc : MCA_OSC_RDMA2_DYN_FIRST;
    void *p;

    if (n <= c->alloc) return OMPI_SUCCESS;
    while (alloc < n) alloc *= 2;
#define MCA_OSC_RDMA2_GROW(field)                                   \
    p = realloc(c->field, alloc * sizeof(*c->field));               \
    if (NULL == p) return OMPI_ERR_OUT_OF_RESOURCE;                 \
    c->field = p;
    MCA_OSC_RDMA2_GROW(region)
    MCA_OSC_RDMA2_GROW(mem)
    MCA_OSC_RDMA2_GROW(next_region)
    MCA_OSC_RDMA2_GROW(next_mem)
#undef MCA_OSC_RDMA2_GROW
    c->alloc = alloc;
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
    c->capacity = 0;
    if (desc->slot_size > MCA_OSC_RDMA2_SLOT_MAX + 7 || desc->rkey_len > MCA_OSC_RDMA2_RKEY_MAX ||
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
        c->slot_size = desc->slot_size;
    }
    return ret;
}

static bool mca_osc_rdma2_same_region(const mca_osc_rdma2_region_t *a,
                                      const mca_osc_rdma2_region_t *b)
{
    return a->base == b->base && a->len == b->len && a->serial == b->serial;
}

/* Makes the n entries just read (next_region) the cache of generation
 * gen: regions that stayed keep their key and path, the keys of the
 * others are destroyed, after our operations that may use them completed. */
static int mca_osc_rdma2_cache_merge(mca_osc_rdma2_peer_t *peer, size_t n, uint64_t gen)
{
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;
    bool drop = false;
    size_t i = 0, j;
    void *swap;
    int ret = OMPI_SUCCESS;

    for (j = 0; j < n; ++j) {       /* both sorted by base */
        const mca_osc_rdma2_region_t *r = &c->next_region[j];
        while (i < c->count && c->region[i].base < r->base) {
            drop |= NULL != c->mem[i++].rkey;
        }
        if (i < c->count && mca_osc_rdma2_same_region(&c->region[i], r)) {
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
                                      desc.count * sizeof(mca_osc_rdma2_region_t));
        }
        if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_read_gen(module, peer, &g2);
        if (OMPI_SUCCESS != ret) return ret;
        if (g1 == g2) {
            return mca_osc_rdma2_cache_merge(peer, desc.count, g1);
        }
    }
}

/* Sets up entry i on its first use: its key, its mapping and its path.
 * *stale: the table changed since the cache was read; refresh and retry. */
static int mca_osc_rdma2_region_mem(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                    size_t i, bool *stale)
{
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;
    const mca_osc_rdma2_region_t *r = &c->region[i];
    mca_osc_rdma2_win_mem_t *mem = &c->mem[i];
    char slot[MCA_OSC_RDMA2_SLOT_MAX + 8];
    uint32_t klen = 0;
    uint64_t gen;
    int ret;

    *stale = false;
    mem->base = r->base;
    mem->size = r->len;
    if (peer->rank == module->my_rank) {
        mem->ptr = (char *) (uintptr_t) r->base;        /* our own memory */
    } else if (0 != r->len) {
        if (r->slot >= c->capacity) return OMPI_ERROR;
        ret = c->table.path->read(peer, &c->table,
                                  mca_osc_rdma2_slot_off(c->capacity, c->slot_size, r->slot),
                                  slot, c->slot_size);
        if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_read_gen(module, peer, &gen);
        if (OMPI_SUCCESS != ret) return ret;
        if (gen != c->gen) {
            *stale = true;          /* the slot may hold another region's key by now */
            return OMPI_SUCCESS;
        }
        memcpy(&klen, slot, sizeof(klen));
        if (0 == klen || klen > c->slot_size - MCA_OSC_RDMA2_SLOT_HEAD) return OMPI_ERROR;
        ret = mca_osc_rdma2_peer_unpack(peer, slot + MCA_OSC_RDMA2_SLOT_HEAD, klen, r->base,
                                        &mem->rkey, &mem->ptr);
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
    bool stale;
    size_t i;
    int ret;

    if (NULL == peer->dyn && OMPI_SUCCESS != (ret = mca_osc_rdma2_cache_create(peer))) {
        return ret;
    }
    c = peer->dyn;
    for (;;) {
        ret = mca_osc_rdma2_cache_refresh(module, peer);
        if (OMPI_SUCCESS != ret) return ret;
        i = mca_osc_rdma2_dyn_bound(c->region, c->count, addr, true);
        if (0 == i) {
            return OMPI_ERR_RMA_RANGE;  /* below every attached region */
        }
        r = &c->region[i - 1];
        if (addr - r->base > r->len || len > r->len - (addr - r->base)) {
            return OMPI_ERR_RMA_RANGE;  /* not inside one attached region */
        }
        *mem = &c->mem[i - 1];
        if (OPAL_LIKELY(NULL != c->mem[i - 1].path)) {
            return OMPI_SUCCESS;
        }
        ret = mca_osc_rdma2_region_mem(module, peer, i - 1, &stale);
        if (OMPI_SUCCESS != ret || !stale) return ret;
    }
}
