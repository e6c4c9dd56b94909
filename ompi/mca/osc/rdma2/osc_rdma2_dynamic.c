/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Dynamic windows: MPI_Win_attach/detach and the origin-side region cache.
 *
 * Each rank's attached regions live in a table inside its (UCX-allocated)
 * state block: base, length and packed key per region, guarded by a
 * sequence counter `gen` (odd while the owner edits, even after).  An
 * origin keeps a copy of each target's table it talks to, tagged with the
 * generation it was read at.  Every operation reads the target's `gen`
 * (a load when the state block is mapped, one 8-byte atomic otherwise);
 * only when it changed is the table read again (count first, then just
 * the used entries) and the cached keys dropped.  Keys are unpacked on
 * first use of each region.  Attach/detach are local and take no lock
 * other readers could wait on: readers retry while `gen` is odd.
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
#include "osc_rdma2_passive.h"

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

int mca_osc_rdma2_attach(struct ompi_win_t *win, void *base, size_t len)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_regions_t *t = module->regions;
    mca_osc_rdma2_region_t *r;
    ucp_mem_h memh = NULL;
    void *mapped, *packed = NULL;
    size_t packed_len = 0, n = t->count;
    int ret;

    if (MPI_WIN_FLAVOR_DYNAMIC != module->flavor) {
        return OMPI_ERR_RMA_FLAVOR;
    }
    if (n >= (size_t) mca_osc_rdma2_component.max_attach) {
        opal_show_help("help-osc-rdma2.txt", "attach-limit", true,
                       mca_osc_rdma2_component.max_attach, win->w_name,
                       opal_process_info.nodename);
        return OMPI_ERR_RMA_ATTACH;
    }
    if (len > 0) {
        ret = mca_common_ompix_ucx_mem_map(MCA_OSC_RDMA2_UCX, base, len, false, &memh, &mapped);
        if (OMPI_SUCCESS != ret) return OMPI_ERR_RMA_ATTACH;
        ret = mca_osc_rdma2_ucx_rkey_pack(memh, &packed, &packed_len);
        if (OMPI_SUCCESS != ret || packed_len > MCA_OSC_RDMA2_RKEY_MAX) {
            if (NULL != packed) ucp_rkey_buffer_release(packed);
            ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, memh);
            return OMPI_ERR_RMA_ATTACH;
        }
    }
    /* before the region is published: see osc_rdma2_overlap.c */
    mca_osc_rdma2_overlap_claim(base, len);
    mca_osc_rdma2_seq_begin(t);
    r = &t->region[n];
    r->base = (uint64_t) (uintptr_t) base;
    r->len = len;
    r->rkey_len = (uint32_t) packed_len;
    if (packed_len > 0) memcpy(r->rkey, packed, packed_len);
    t->count = n + 1;
    mca_osc_rdma2_seq_end(t);
    module->region_memh[n] = memh;
    if (NULL != packed) ucp_rkey_buffer_release(packed);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_detach(struct ompi_win_t *win, const void *base)
{
    mca_osc_rdma2_module_t *module = MCA_OSC_RDMA2_MODULE(win);
    mca_osc_rdma2_regions_t *t = module->regions;
    size_t i, n = t->count;
    ucp_mem_h memh;

    if (MPI_WIN_FLAVOR_DYNAMIC != module->flavor) {
        return OMPI_ERR_RMA_FLAVOR;
    }
    for (i = 0; i < n && t->region[i].base != (uint64_t) (uintptr_t) base; ++i) {
    }
    if (i == n) {
        return OMPI_ERR_RMA_ATTACH;     /* not attached */
    }
    memh = module->region_memh[i];
    mca_osc_rdma2_seq_begin(t);
    t->region[i] = t->region[n - 1];
    t->count = n - 1;
    mca_osc_rdma2_seq_end(t);
    module->region_memh[i] = module->region_memh[n - 1];
    module->region_memh[n - 1] = NULL;
    if (NULL != memh) {
        ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, memh);
    }
    return OMPI_SUCCESS;
}

void mca_osc_rdma2_dyn_release_local(mca_osc_rdma2_module_t *module)
{
    size_t i;

    if (NULL == module->region_memh) return;
    for (i = 0; i < (size_t) mca_osc_rdma2_component.max_attach; ++i) {
        if (NULL != module->region_memh[i]) {
            ucp_mem_unmap(MCA_OSC_RDMA2_UCX->context, module->region_memh[i]);
        }
    }
    free(module->region_memh);
    module->region_memh = NULL;
}

/* ---------------------------------------------------------------------- */
/* Origin side                                                             */

static void mca_osc_rdma2_cache_drop_keys(mca_osc_rdma2_dyn_cache_t *c)
{
    size_t i;
    for (i = 0; i < (size_t) mca_osc_rdma2_component.max_attach; ++i) {
        if (NULL != c->mem[i].rkey) {
            ucp_rkey_destroy(c->mem[i].rkey);
        }
        memset(&c->mem[i], 0, sizeof(c->mem[i]));
    }
}

void mca_osc_rdma2_dyn_release_peer(mca_osc_rdma2_peer_t *peer)
{
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;

    if (NULL == c) return;
    mca_osc_rdma2_cache_drop_keys(c);
    free(c->region);
    free(c->mem);
    free(c);
    peer->dyn = NULL;
}

static int mca_osc_rdma2_cache_create(mca_osc_rdma2_peer_t *peer)
{
    size_t n = (size_t) mca_osc_rdma2_component.max_attach;
    mca_osc_rdma2_dyn_cache_t *c = calloc(1, sizeof(*c));

    if (NULL != c) {
        c->region = calloc(n, sizeof(*c->region));
        c->mem = calloc(n, sizeof(*c->mem));
    }
    if (NULL == c || NULL == c->region || NULL == c->mem) {
        if (NULL != c) { free(c->region); free(c->mem); free(c); }
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    c->gen = 1;                 /* odd: never a stable generation */
    peer->dyn = c;
    return OMPI_SUCCESS;
}

static int mca_osc_rdma2_read_gen(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                  uint64_t *gen)
{
    return peer->state.path->load(peer, &peer->state,
                                  module->layout.regions + offsetof(mca_osc_rdma2_regions_t, gen),
                                  gen);
}

static int mca_osc_rdma2_cache_refresh(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer)
{
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;
    uint64_t g1, g2, count;
    int ret;

    for (;;) {
        ret = mca_osc_rdma2_read_gen(module, peer, &g1);
        if (OMPI_SUCCESS != ret || g1 == c->gen) return ret;
        if (g1 & 1) {           /* the owner is editing */
            opal_progress();
            continue;
        }
        /* Operations still in flight may use the keys we are dropping. */
        ret = mca_osc_rdma2_complete_peer(peer);
        if (OMPI_SUCCESS != ret) return ret;
        mca_osc_rdma2_cache_drop_keys(c);
        c->gen = 1;
        ret = peer->state.path->read(peer, &peer->state,
                                     module->layout.regions +
                                         offsetof(mca_osc_rdma2_regions_t, count),
                                     &count, sizeof(count));
        if (OMPI_SUCCESS == ret && count > (uint64_t) mca_osc_rdma2_component.max_attach) {
            ret = mca_osc_rdma2_read_gen(module, peer, &g2);
            if (OMPI_SUCCESS == ret && g1 != g2) {
                continue;       /* torn read */
            }
            /* Not torn: the target allows more regions than we can hold. */
            opal_show_help("help-osc-rdma2.txt", "max-attach-mismatch", true, peer->rank,
                           module->win->w_name, (unsigned long long) count,
                           mca_osc_rdma2_component.max_attach, opal_process_info.nodename);
            return OMPI_SUCCESS != ret ? ret : OMPI_ERR_BAD_PARAM;
        }
        if (OMPI_SUCCESS == ret && count > 0) {
            ret = peer->state.path->read(peer, &peer->state,
                                         module->layout.regions +
                                             offsetof(mca_osc_rdma2_regions_t, region),
                                         c->region, count * sizeof(mca_osc_rdma2_region_t));
        }
        if (OMPI_SUCCESS == ret) ret = mca_osc_rdma2_read_gen(module, peer, &g2);
        if (OMPI_SUCCESS != ret) return ret;
        if (g1 == g2) {
            c->gen = g1;
            c->count = count;
            return OMPI_SUCCESS;
        }
    }
}

/* Sets up entry i on its first use: its key, its mapping and its path. */
static int mca_osc_rdma2_region_mem(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                                    size_t i)
{
    mca_osc_rdma2_dyn_cache_t *c = peer->dyn;
    const mca_osc_rdma2_region_t *r = &c->region[i];
    mca_osc_rdma2_win_mem_t *mem = &c->mem[i];
    void *p = NULL;

    if (NULL != mem->path) {
        return OMPI_SUCCESS;
    }
    mem->base = r->base;
    mem->size = r->len;
    if (peer->rank == module->my_rank) {
        mem->ptr = (char *) (uintptr_t) r->base;        /* our own memory */
    } else if (0 != r->rkey_len) {
        if (UCS_OK != ucp_ep_rkey_unpack(peer->ep, r->rkey, &mem->rkey)) {
            mem->rkey = NULL;
            return OMPI_ERROR;
        }
        if (UCS_OK == ucp_rkey_ptr(mem->rkey, r->base, &p)) {
            mem->ptr = (char *) p;
        }
    }
    mem->path = mca_osc_rdma2_peer_win_path(peer, mem->ptr);
    return OMPI_SUCCESS;
}

int mca_osc_rdma2_dyn_lookup(mca_osc_rdma2_module_t *module, mca_osc_rdma2_peer_t *peer,
                             uint64_t addr, uint64_t len, const mca_osc_rdma2_win_mem_t **mem)
{
    mca_osc_rdma2_dyn_cache_t *c;
    size_t i;
    int ret;

    if (NULL == peer->dyn && OMPI_SUCCESS != (ret = mca_osc_rdma2_cache_create(peer))) {
        return ret;
    }
    c = peer->dyn;
    ret = mca_osc_rdma2_cache_refresh(module, peer);
    if (OMPI_SUCCESS != ret) return ret;
    for (i = 0; i < c->count; ++i) {
        const mca_osc_rdma2_region_t *r = &c->region[i];
        if (addr >= r->base && addr + len <= r->base + r->len) {
            break;
        }
    }
    if (i == c->count) {
        return OMPI_ERR_RMA_RANGE;  /* not inside one attached region */
    }
    ret = mca_osc_rdma2_region_mem(module, peer, i);
    *mem = &c->mem[i];
    return ret;
}
