/*
 * ompix-test: np=1,2,3,4 tls=shm,tcp,net pml=ob1,ucx timeout=120
 *
 * Persistent barrier, bcast and allreduce: counts 0, 1, 37 and 1 MiB worth,
 * contiguous and strided (vector) layouts, int and double, SUM, MAX and a
 * non-commutative user operation, MPI_IN_PLACE; each request started 10
 * times with new buffer contents and checked every time; different
 * collectives started in different orders on different ranks; Startall;
 * Test/Wait on inactive requests; free.
 */
#include "ompix_test.h"
#include <stdbool.h>
#include <string.h>

#define STARTS 10
static const int counts[] = {0, 1, 37, 1 << 18};   /* 1 << 18 ints = 1 MiB */

/* Affine maps x -> m*x + c under composition ("left, then right"):
 * associative, not commutative.  Elements are pairs of unsigned. */
/* The strided case passes one vector datatype; a user operation sees the
 * datatype it was given and must walk its layout itself. */
static MPI_Datatype vector_dt = MPI_DATATYPE_NULL;
static int vector_n;

static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    unsigned *a = in, *b = inout;
    int n = *dt == vector_dt ? *len * vector_n : *len;
    int step = *dt == vector_dt ? 4 : 2;
    for (int i = 0; i < n; ++i, a += step, b += step) {
        unsigned m = b[0] * a[0], c = b[0] * a[1] + b[1];
        b[0] = m;
        b[1] = c;
    }
}

static unsigned value(int r, int it, int i, int k) { return (unsigned) (r * 7 + it * 3 + i + k + 1); }

/* Fills element i of a buffer laid out with `stride` (1 contiguous, 2 for
 * the vector type, whose gaps hold a guard that must survive). */
static void fill(void *buf, MPI_Datatype base, int n, int stride, int r, int it)
{
    for (int i = 0; i < n * stride; ++i) {
        bool gap = i % stride;
        int e = i / stride;
        if (MPI_INT == base) ((int *) buf)[i] = gap ? -77 : (int) value(r, it, e, 0);
        else if (MPI_DOUBLE == base) ((double *) buf)[i] = gap ? -77.0 : value(r, it, e, 0) * 0.5;
        else { ((unsigned *) buf)[2 * i] = gap ? 77 : value(r, it, e, 0) % 5 + 1;
               ((unsigned *) buf)[2 * i + 1] = gap ? 77 : value(r, it, e, 1); }
    }
}

static int check(const void *buf, MPI_Datatype base, MPI_Op op, int n, int stride, int it)
{
    int bad = 0;
    for (int i = 0; i < n * stride; ++i) {
        bool gap = i % stride;
        int e = i / stride;
        if (MPI_INT == base || MPI_DOUBLE == base) {
            double want = 0, got = MPI_INT == base ? ((const int *) buf)[i] : ((const double *) buf)[i];
            double scale = MPI_INT == base ? 1.0 : 0.5;
            for (int r = 0; r < size; ++r) {
                double v = value(r, it, e, 0) * scale;
                want = MPI_SUM == op ? want + v : (0 == r || v > want ? v : want);
            }
            if (gap) want = -77;
            bad += got != want;
        } else {
            unsigned m = 1, c = 0;
            for (int r = 0; r < size; ++r) {         /* rank order */
                unsigned rm = value(r, it, e, 0) % 5 + 1, rc = value(r, it, e, 1);
                c = rm * c + rc;
                m = rm * m;
            }
            const unsigned *p = (const unsigned *) buf + 2 * i;
            bad += gap ? (p[0] != 77 || p[1] != 77) : (p[0] != m || p[1] != c);
        }
    }
    return bad;
}

static void allreduce_case(MPI_Datatype base, MPI_Op op, int n, int stride, bool in_place)
{
    size_t esize = MPI_INT == base ? sizeof(int) : MPI_DOUBLE == base ? sizeof(double) : 2 * sizeof(unsigned);
    size_t bytes = (size_t) (n > 0 ? n : 1) * stride * esize;
    char *sbuf = malloc(bytes), *rbuf = malloc(bytes);
    MPI_Datatype elem = base, dt;
    MPI_Request req;

    if (MPI_INT != base && MPI_DOUBLE != base) {
        MPI_Type_contiguous(2, MPI_UNSIGNED, &elem);
    }
    if (1 == stride) {
        dt = elem;
        if (elem != base) MPI_Type_commit(&dt);
    } else {
        MPI_Type_vector(n, 1, stride, elem, &dt);
        MPI_Type_commit(&dt);
        vector_dt = dt;
        vector_n = n;
    }
    int dcount = 1 == stride ? n : 1;
    if (n == 0) dcount = 0;
    CHECK(MPI_SUCCESS == MPIX_Allreduce_init(in_place ? MPI_IN_PLACE : sbuf, rbuf, dcount, dt, op,
                                             MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (int it = 0; it < STARTS; ++it) {
        fill(in_place ? rbuf : sbuf, base, n, stride, rank, it);
        if (!in_place) fill(rbuf, base, n, stride, -1000, it);   /* overwritten */
        if (!in_place && stride > 1) {
            /* gaps of the receive buffer must keep their guard */
            fill(rbuf, base, n, stride, -1000, it);
        }
        CHECK(MPI_SUCCESS == MPI_Start(&req));
        CHECK(MPI_SUCCESS == MPI_Wait(&req, MPI_STATUS_IGNORE));
        int bad = check(rbuf, base, op, n, stride, it);
        if (bad) printf("rank %d: allreduce n=%d stride=%d inplace=%d it=%d: %d wrong\n",
                        rank, n, stride, in_place, it, bad);
        CHECK(0 == bad);
    }
    CHECK(MPI_SUCCESS == MPI_Request_free(&req));
    if (dt != elem) MPI_Type_free(&dt);          /* the vector */
    if (elem != base) MPI_Type_free(&elem);      /* the pair */
    free(sbuf);
    free(rbuf);
}

static void allreduce_all(void)
{
    MPI_Op noncomm;
    MPI_Op_create(compose, 0, &noncomm);
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); ++c) {
        int n = counts[c];
        /* Predefined operations take predefined datatypes only (MPI-3.1
         * 5.9.2); strided layouts go through the user operation. */
        allreduce_case(MPI_INT, MPI_SUM, n, 1, false);
        allreduce_case(MPI_DOUBLE, MPI_MAX, n, 1, false);
        for (int stride = 1; stride <= 2 && n > 0; ++stride) {
            allreduce_case(MPI_UNSIGNED, noncomm, n, stride, false);
        }
        if (n < (1 << 18)) {
            allreduce_case(MPI_INT, MPI_MAX, n, 1, true);
            allreduce_case(MPI_DOUBLE, MPI_SUM, n, 1, true);
            allreduce_case(MPI_UNSIGNED, noncomm, n, 2, true);
        }
    }
    MPI_Op_free(&noncomm);
}

static void bcast_all(void)
{
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); ++c) {
        int n = counts[c];
        for (int root = 0; root < size; ++root) {
            for (int stride = 1; stride <= 2; ++stride) {
                double *buf = malloc((size_t) (n ? n : 1) * stride * sizeof(double));
                MPI_Datatype dt = MPI_DOUBLE;
                MPI_Request req;
                if (2 == stride) {
                    MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &dt);
                    MPI_Type_commit(&dt);
                }
                CHECK(MPI_SUCCESS == MPIX_Bcast_init(buf, 2 == stride ? (n ? 1 : 0) : n, dt, root,
                                                     MPI_COMM_WORLD, MPI_INFO_NULL, &req));
                for (int it = 0; it < STARTS; ++it) {
                    for (int i = 0; i < n * stride; ++i) {
                        buf[i] = (i % stride) ? -5.0 : (rank == root ? it * 1000.0 + i : -1.0);
                    }
                    MPI_Start(&req);
                    MPI_Wait(&req, MPI_STATUS_IGNORE);
                    int bad = 0;
                    for (int i = 0; i < n * stride; ++i) {
                        bad += buf[i] != ((i % stride) ? -5.0 : it * 1000.0 + i);
                    }
                    CHECK(0 == bad);
                }
                MPI_Request_free(&req);
                if (2 == stride) MPI_Type_free(&dt);
                free(buf);
            }
        }
    }
}

/* Ranks start the same three collectives in different orders (allowed for
 * persistent collectives: matching follows init order), with Startall,
 * and Test/Wait on inactive requests return at once. */
static void orders_and_inactive(void)
{
    MPI_Request r[3];
    int in = rank + 1, out = 0, b = 0, flag = 0;
    MPI_Status st;

    MPIX_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
    MPIX_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]);

    CHECK(MPI_SUCCESS == MPI_Test(&r[1], &flag, &st));       /* inactive */
    CHECK(flag && MPI_ANY_SOURCE == st.MPI_SOURCE && MPI_ANY_TAG == st.MPI_TAG);
    CHECK(MPI_SUCCESS == MPI_Wait(&r[0], MPI_STATUS_IGNORE));

    for (int it = 0; it < STARTS; ++it) {
        b = 0 == rank ? 42 + it : 0;
        if (rank % 2) {
            for (int k = 2; k >= 0; --k) MPI_Start(&r[k]);
        } else {
            MPI_Startall(3, r);
        }
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
        CHECK(out == size * (size + 1) / 2 && b == 42 + it);
    }
    for (int k = 0; k < 3; ++k) {
        CHECK(MPI_SUCCESS == MPI_Request_free(&r[k]));
        CHECK(MPI_REQUEST_NULL == r[k]);
    }
}

/* Freeing an active persistent collective is erroneous. */
static void free_active(void)
{
    MPI_Request r;
    int in = 1, out;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPIX_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    if (0 == rank) {
        MPI_Start(&r);
    }
    if (size > 1 && 0 == rank) {
        /* the others start only after the barrier, so it cannot be complete */
        CHECK_CLASS(MPI_Request_free(&r), MPI_ERR_REQUEST);
        CHECK(MPI_REQUEST_NULL != r);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 != rank) {
        MPI_Start(&r);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(out == size);
    CHECK(MPI_SUCCESS == MPI_Request_free(&r));
}

int main(int argc, char **argv)
{
#ifdef PERSIST_FORCE_ALGORITHM
    /* every size through one algorithm (see persist_core_alg*.c) */
    setenv("OMPI_MCA_coll_persist_bcast_algorithm", PERSIST_FORCE_ALGORITHM, 1);
    setenv("OMPI_MCA_coll_persist_allreduce_algorithm", PERSIST_FORCE_ALGORITHM, 1);
#endif
    ompix_test_init(&argc, &argv);
    orders_and_inactive();
    bcast_all();
    allreduce_all();
    free_active();
    return ompix_test_finish("persist_core");
}
