/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Copies between two layouts of one type signature by walking both with
 * the convertor's raw iovec interface (common_ompix_datatype.h says why
 * not ompi_datatype_sndrcv).
 */
#include "ompi_config.h"

#include <string.h>

#include "opal/datatype/opal_convertor.h"

#include "common_ompix_datatype.h"

#define MCA_COMMON_OMPIX_DATATYPE_IOV_BATCH 32

/* The next piece of one layout, refilling its batch of iovecs from the
 * convertor when the batch is used up; false once the layout is done. */
typedef struct mca_common_ompix_datatype_side_t {
    opal_convertor_t conv;
    struct iovec iov[MCA_COMMON_OMPIX_DATATYPE_IOV_BATCH];
    uint32_t cnt, i;
    bool done;
} mca_common_ompix_datatype_side_t;

static void mca_common_ompix_datatype_side_init(mca_common_ompix_datatype_side_t *s, void *buf,
                                                int count, struct ompi_datatype_t *dt)
{
    OBJ_CONSTRUCT(&s->conv, opal_convertor_t);
    opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &dt->super, count, buf, 0,
                                             &s->conv);
    s->cnt = s->i = 0;
    s->done = false;
}

static void mca_common_ompix_datatype_side_fini(mca_common_ompix_datatype_side_t *s)
{
    opal_convertor_cleanup(&s->conv);
    OBJ_DESTRUCT(&s->conv);
}

static bool mca_common_ompix_datatype_side_next(mca_common_ompix_datatype_side_t *s)
{
    size_t size;

    if (s->i < s->cnt) {
        return true;
    }
    if (s->done) {
        return false;
    }
    s->cnt = MCA_COMMON_OMPIX_DATATYPE_IOV_BATCH;
    s->done = opal_convertor_raw(&s->conv, s->iov, &s->cnt, &size);
    s->i = 0;
    return 0 != s->cnt;
}

static void mca_common_ompix_datatype_side_take(mca_common_ompix_datatype_side_t *s, size_t len)
{
    struct iovec *v = &s->iov[s->i];
    v->iov_base = (char *) v->iov_base + len;
    v->iov_len -= len;
    s->i += 0 == v->iov_len;
}

int mca_common_ompix_datatype_walk_pairs(void *abuf, int acount, struct ompi_datatype_t *adt,
                                         void *bbuf, int bcount, struct ompi_datatype_t *bdt,
                                         mca_common_ompix_datatype_pair_fn_t fn, void *ctx)
{
    mca_common_ompix_datatype_side_t a, b;
    int ret = OMPI_SUCCESS;

    mca_common_ompix_datatype_side_init(&a, abuf, acount, adt);
    mca_common_ompix_datatype_side_init(&b, bbuf, bcount, bdt);
    while (OMPI_SUCCESS == ret && mca_common_ompix_datatype_side_next(&a) &&
           mca_common_ompix_datatype_side_next(&b)) {
        struct iovec *x = &a.iov[a.i], *y = &b.iov[b.i];
        size_t len = x->iov_len < y->iov_len ? x->iov_len : y->iov_len;
        ret = fn(ctx, x->iov_base, y->iov_base, len);
        mca_common_ompix_datatype_side_take(&a, len);
        mca_common_ompix_datatype_side_take(&b, len);
    }
    mca_common_ompix_datatype_side_fini(&a);
    mca_common_ompix_datatype_side_fini(&b);
    return ret;
}

static int mca_common_ompix_datatype_copy_pair(void *ctx, char *src, char *dst, size_t len)
{
    (void) ctx;
    memcpy(dst, src, len);
    return OMPI_SUCCESS;
}

int mca_common_ompix_datatype_copy(const void *src, int scount, struct ompi_datatype_t *sdt,
                                   void *dst, int dcount, struct ompi_datatype_t *ddt)
{
    ptrdiff_t slb, dlb;
    size_t size;

    if (mca_common_ompix_datatype_contiguous(sdt, scount, &slb) &&
        mca_common_ompix_datatype_contiguous(ddt, dcount, &dlb)) {
        ompi_datatype_type_size(sdt, &size);
        memcpy((char *) dst + dlb, (const char *) src + slb, size * (size_t) scount);
        return OMPI_SUCCESS;
    }
    return mca_common_ompix_datatype_walk_pairs((void *) src, scount, sdt, dst, dcount, ddt,
                                                mca_common_ompix_datatype_copy_pair, NULL);
}
