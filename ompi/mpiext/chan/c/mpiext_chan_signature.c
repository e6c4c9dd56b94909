/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Type signatures of bound ends (../README-design.md, "Type signatures").
 * A signature is the sequence of opal basic types of count x datatype; it
 * is kept run-length encoded (adjacent runs of one type merged) up to
 * OMPIX_CHAN_SIG_RUNS runs, and always as its length and a polynomial hash
 * modulo 2^61-1 of the sequence.  The hash of a repetition follows from
 * the hash of one copy (a geometric sum), so walking a description costs
 * O(description entries x loop depth x log count), never O(count x
 * elements): a loop is summarised once and repeated arithmetically, and its
 * runs are only repeated while they stay under the cap (a body of one type
 * is one longer run).
 */

#include "ompi_config.h"

#include <string.h>

#include "opal/datatype/opal_datatype.h"
#include "opal/datatype/opal_datatype_internal.h"
#include "ompi/datatype/ompi_datatype.h"

#include "mpiext_chan_internal.h"

__extension__ typedef unsigned __int128 ompix_chan_u128_t;

#define OMPIX_CHAN_SIG_P    ((UINT64_C(1) << 61) - 1)
#define OMPIX_CHAN_SIG_BASE UINT64_C(0x0d1b3c5e7f9a2b4d)   /* < P, fixed on both ends */

static uint64_t ompix_chan_sig_mul(uint64_t a, uint64_t b)
{
    ompix_chan_u128_t p = (ompix_chan_u128_t) a * b;
    uint64_t r = (uint64_t) (p & OMPIX_CHAN_SIG_P) + (uint64_t) (p >> 61);

    return r >= OMPIX_CHAN_SIG_P ? r - OMPIX_CHAN_SIG_P : r;
}

static uint64_t ompix_chan_sig_add(uint64_t a, uint64_t b)
{
    uint64_t r = a + b;

    return r >= OMPIX_CHAN_SIG_P ? r - OMPIX_CHAN_SIG_P : r;
}

/* b^n and 1 + b + ... + b^(n-1), together in O(log n), without a division. */
static void ompix_chan_sig_geom(uint64_t b, uint64_t n, uint64_t *pw, uint64_t *geom)
{
    uint64_t p, g;

    if (0 == n) {
        *pw = 1;
        *geom = 0;
    } else if (n & 1) {
        ompix_chan_sig_geom(b, n - 1, &p, &g);
        *pw = ompix_chan_sig_mul(p, b);
        *geom = ompix_chan_sig_add(1, ompix_chan_sig_mul(b, g));
    } else {
        ompix_chan_sig_geom(b, n / 2, &p, &g);
        *pw = ompix_chan_sig_mul(p, p);
        *geom = ompix_chan_sig_mul(g, ompix_chan_sig_add(1, p));
    }
}

/* sig followed by reps copies of a sequence of `total` elements with that
 * hash and pw = BASE^total: the hash of the copies is hash x (1 + pw + ...
 * + pw^(reps-1)), shifted by BASE^(sig's length). */
static void ompix_chan_sig_append(ompix_chan_sig_t *sig, uint64_t hash, uint64_t pw,
                                  uint64_t total, uint64_t reps)
{
    uint64_t pw_all, geom;

    ompix_chan_sig_geom(pw, reps, &pw_all, &geom);
    sig->hash = ompix_chan_sig_add(sig->hash,
                                   ompix_chan_sig_mul(sig->pw, ompix_chan_sig_mul(hash, geom)));
    sig->pw = ompix_chan_sig_mul(sig->pw, pw_all);
    sig->total += total * reps;
}

static void ompix_chan_sig_init(ompix_chan_sig_t *sig)
{
    sig->total = 0;
    sig->hash = 0;
    sig->pw = 1;
    sig->nruns = 0;
    sig->flags = 0;
}

/* Appends the runs of one sequence, merging at the seam; over the cap the
 * runs are dropped and OMPIX_CHAN_SIG_OVER set (hash and total go on). */
static void ompix_chan_sig_push_run(ompix_chan_sig_t *sig, uint32_t type, uint64_t len)
{
    if (sig->flags & OMPIX_CHAN_SIG_OVER) {
        return;
    }
    if (sig->nruns > 0 && sig->runs[sig->nruns - 1].type == type) {
        sig->runs[sig->nruns - 1].len += len;
        return;
    }
    if (OMPIX_CHAN_SIG_RUNS == sig->nruns) {
        sig->flags |= OMPIX_CHAN_SIG_OVER;
        return;
    }
    sig->runs[sig->nruns].type = type;
    sig->runs[sig->nruns].pad = 0;
    sig->runs[sig->nruns].len = len;
    sig->nruns++;
}

/* sig followed by reps copies of body. */
static void ompix_chan_sig_repeat(ompix_chan_sig_t *sig, const ompix_chan_sig_t *body,
                                  uint64_t reps)
{
    if (0 == reps || 0 == body->total) {
        return;
    }
    ompix_chan_sig_append(sig, body->hash, body->pw, body->total, reps);
    if (body->flags & OMPIX_CHAN_SIG_OVER) {
        sig->flags |= OMPIX_CHAN_SIG_OVER;
    } else if (1 == body->nruns) {
        ompix_chan_sig_push_run(sig, body->runs[0].type, body->runs[0].len * reps);
    } else {
        /* Every copy of a body of two or more runs adds at least one run,
         * so this stops after at most OMPIX_CHAN_SIG_RUNS + 1 copies. */
        for (uint64_t i = 0; i < reps && !(sig->flags & OMPIX_CHAN_SIG_OVER); ++i) {
            for (uint32_t j = 0; j < body->nruns; ++j) {
                ompix_chan_sig_push_run(sig, body->runs[j].type, body->runs[j].len);
            }
        }
    }
}

/* A run of len elements of opal basic type type. */
static void ompix_chan_sig_elems(ompix_chan_sig_t *sig, uint32_t type, uint64_t len)
{
    if (0 == len) {
        return;
    }
    ompix_chan_sig_append(sig, type + 1, OMPIX_CHAN_SIG_BASE, 1, len);
    ompix_chan_sig_push_run(sig, type, len);
}

static uint64_t ompix_chan_sig_min(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Appends the first `limit` basic elements of reps copies of entries
 * [first, end) of desc. */
static void ompix_chan_sig_walk(const dt_elem_desc_t *desc, uint32_t first, uint32_t end,
                                uint64_t reps, uint64_t limit, ompix_chan_sig_t *sig);

/* One pass over [first, end), at most `limit` elements. */
static void ompix_chan_sig_walk_once(const dt_elem_desc_t *desc, uint32_t first, uint32_t end,
                                     uint64_t limit, ompix_chan_sig_t *sig)
{
    uint64_t start = sig->total;

    for (uint32_t i = first; i < end && sig->total - start < limit; ++i) {
        const dt_elem_desc_t *e = &desc[i];
        uint64_t left = limit - (sig->total - start);

        if (OPAL_DATATYPE_LOOP == e->elem.common.type) {
            ompix_chan_sig_walk(desc, i + 1, i + e->loop.items, e->loop.loops, left, sig);
            i += e->loop.items;     /* past its END_LOOP */
        } else if (OPAL_DATATYPE_END_LOOP == e->elem.common.type) {
            break;
        } else if (e->elem.common.flags & OPAL_DATATYPE_FLAG_DATA) {
            ompix_chan_sig_elems(sig, e->elem.common.type,
                                 ompix_chan_sig_min((uint64_t) e->elem.count
                                                    * e->elem.blocklen, left));
        }
    }
}

static void ompix_chan_sig_walk(const dt_elem_desc_t *desc, uint32_t first, uint32_t end,
                                uint64_t reps, uint64_t limit, ompix_chan_sig_t *sig)
{
    ompix_chan_sig_t body;
    uint64_t whole;

    ompix_chan_sig_init(&body);
    ompix_chan_sig_walk_once(desc, first, end, UINT64_MAX, &body);
    if (0 == body.total) {
        return;
    }
    whole = ompix_chan_sig_min(reps, limit / body.total);
    ompix_chan_sig_repeat(sig, &body, whole);
    if (whole < reps && limit - whole * body.total > 0) {
        ompix_chan_sig_walk_once(desc, first, end, limit - whole * body.total, sig);
    }
}

void ompix_chan_sig_make(ompi_datatype_t *type, size_t count, uint64_t limit,
                         ompix_chan_sig_t *sig)
{
    const opal_datatype_t *dt = &type->super;

    ompix_chan_sig_init(sig);
    if (type == &ompi_mpi_packed.dt) {
        sig->flags |= OMPIX_CHAN_SIG_PACKED;
        return;
    }
    if (0 == count || NULL == dt->desc.desc || 0 == dt->desc.used) {
        return;
    }
    ompix_chan_sig_walk(dt->desc.desc, 0, dt->desc.used, count, limit, sig);
}

/* Whether the element sequences of a and b agree over the shorter one. */
static bool ompix_chan_sig_runs_agree(const ompix_chan_sig_run_t *a, uint32_t na,
                                      const ompix_chan_sig_run_t *b, uint32_t nb)
{
    uint32_t i = 0, j = 0;
    uint64_t ua = 0, ub = 0;      /* elements of a[i], b[j] consumed */

    while (i < na && j < nb) {
        uint64_t step;

        if (a[i].type != b[j].type) {
            return false;
        }
        step = ompix_chan_sig_min(a[i].len - ua, b[j].len - ub);
        ua += step;
        ub += step;
        if (ua == a[i].len) {
            ++i;
            ua = 0;
        }
        if (ub == b[j].len) {
            ++j;
            ub = 0;
        }
    }
    return true;
}

int ompix_chan_sig_check(const ompix_chan_wire_offer_t *w, const ompix_chan_sig_run_t *runs,
                         uint64_t recv_bytes, ompi_datatype_t *type, size_t count)
{
    ompix_chan_sig_t mine;

    if (0 == w->bytes) {
        return MPI_SUCCESS;
    }
    ompix_chan_sig_make(type, count, w->sig_total, &mine);
    if ((w->sig_flags | mine.flags) & OMPIX_CHAN_SIG_PACKED) {
        return w->bytes > recv_bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    }
    if (w->sig_flags & OMPIX_CHAN_SIG_OVER) {
        /* Only the hash of the whole send came: a receive shorter than the
         * send is truncation whatever its types. */
        if (w->sig_total > mine.total) {
            return MPI_ERR_TRUNCATE;
        }
        return w->sig_hash == mine.hash ? MPI_SUCCESS : MPI_ERR_TYPE;
    }
    /* mine holds the receive's first sig_total elements: more runs than
     * the send's (canonical, merged) runs means another sequence. */
    if ((mine.flags & OMPIX_CHAN_SIG_OVER)
        || !ompix_chan_sig_runs_agree(runs, w->sig_runs, mine.runs, mine.nruns)) {
        return MPI_ERR_TYPE;
    }
    return w->sig_total > mine.total || w->bytes > recv_bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}
