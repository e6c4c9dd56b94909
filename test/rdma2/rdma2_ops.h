/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Every predefined datatype that accumulate-style operations accept, with
 * the predefined operations the MPI standard allows on it (MPI-3.1 5.9.2
 * and 11.3.4), and an independent C implementation of each operation so
 * the tests can compute expected values exactly.  Test values are small
 * integers (and small Gaussian integers, 0/1 truth values, 7-bit patterns,
 * value/index pairs with ties), so every result is exact in every type.
 */
#ifndef RDMA2_OPS_H
#define RDMA2_OPS_H

#include "rdma2_common.h"
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>

enum { O_SUM, O_PROD, O_MAX, O_MIN, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR,
       O_MAXLOC, O_MINLOC, O_REPLACE, O_NO_OP, NOPERS };
static const char *const oper_name[NOPERS] = {
    "MPI_SUM", "MPI_PROD", "MPI_MAX", "MPI_MIN", "MPI_LAND", "MPI_LOR", "MPI_LXOR",
    "MPI_BAND", "MPI_BOR", "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};

static inline MPI_Op oper(int o)
{
    static MPI_Op ops[NOPERS];
    if (!ops[0]) {
        MPI_Op init[NOPERS] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR, MPI_LXOR,
                               MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE,
                               MPI_NO_OP};
        memcpy(ops, init, sizeof ops);
    }
    return ops[o];
}

#define B(o) (1u << (o))
#define ARITH (B(O_SUM) | B(O_PROD) | B(O_MAX) | B(O_MIN))
#define LOGIC (B(O_LAND) | B(O_LOR) | B(O_LXOR))
#define BITS (B(O_BAND) | B(O_BOR) | B(O_BXOR))
#define ANYTYPE (B(O_REPLACE) | B(O_NO_OP))
/* Type classes of MPI-3.1 5.9.2 and the operations allowed on them. */
#define C_INTEGER (ARITH | LOGIC | BITS | ANYTYPE)
#define F_INTEGER (ARITH | BITS | ANYTYPE)
#define MULTI_LANG (ARITH | BITS | ANYTYPE)
#define FLOATING (ARITH | ANYTYPE)
#define COMPLEX_T (B(O_SUM) | B(O_PROD) | ANYTYPE)
#define LOGICAL_T (LOGIC | ANYTYPE)
#define BYTE_T (BITS | ANYTYPE)
#define PAIR_T (B(O_MAXLOC) | B(O_MINLOC) | ANYTYPE)

/* A value is (v, w): v the number (real part, or the value of a pair), w
 * the imaginary part or the pair's index. */
struct tentry {
    const char *name;
    MPI_Datatype dt;
    unsigned ops;
    int is_signed;
    size_t sz;
    void (*set)(void *p, long long v, long long w);
    void (*get)(const void *p, long double *v, long double *w);
    void (*apply)(int o, void *acc, const void *in);
};

#define DEF_INT(N, T)                                                               \
    static inline void set_##N(void *p, long long v, long long w) { (void) w; *(T *) p = (T) v; } \
    static inline void get_##N(const void *p, long double *v, long double *w)              \
    { *v = (long double) *(const T *) p; *w = 0; }                                  \
    static inline void apply_##N(int o, void *a_, const void *b_)                          \
    {                                                                               \
        T *a = a_, b = *(const T *) b_;                                             \
        switch (o) {                                                                \
        case O_SUM: *a = (T) (*a + b); break;                                       \
        case O_PROD: *a = (T) (*a * b); break;                                      \
        case O_MAX: if (b > *a) *a = b; break;                                      \
        case O_MIN: if (b < *a) *a = b; break;                                      \
        case O_LAND: *a = (T) (*a && b); break;                                     \
        case O_LOR: *a = (T) (*a || b); break;                                      \
        case O_LXOR: *a = (T) (!*a != !b); break;                                   \
        case O_BAND: *a = (T) (*a & b); break;                                      \
        case O_BOR: *a = (T) (*a | b); break;                                       \
        case O_BXOR: *a = (T) (*a ^ b); break;                                      \
        case O_REPLACE: *a = b; break;                                              \
        }                                                                           \
    }

#define DEF_FLT(N, T)                                                               \
    static inline void set_##N(void *p, long long v, long long w) { (void) w; *(T *) p = (T) v; } \
    static inline void get_##N(const void *p, long double *v, long double *w)              \
    { *v = (long double) *(const T *) p; *w = 0; }                                  \
    static inline void apply_##N(int o, void *a_, const void *b_)                          \
    {                                                                               \
        T *a = a_, b = *(const T *) b_;                                             \
        switch (o) {                                                                \
        case O_SUM: *a = *a + b; break;                                             \
        case O_PROD: *a = *a * b; break;                                            \
        case O_MAX: if (b > *a) *a = b; break;                                      \
        case O_MIN: if (b < *a) *a = b; break;                                      \
        case O_REPLACE: *a = b; break;                                              \
        }                                                                           \
    }

#define DEF_CPLX(N, T, R)                                                           \
    static inline void set_##N(void *p, long long v, long long w)                          \
    { ((R *) p)[0] = (R) v; ((R *) p)[1] = (R) w; }                                 \
    static inline void get_##N(const void *p, long double *v, long double *w)              \
    { *v = ((const R *) p)[0]; *w = ((const R *) p)[1]; }                           \
    static inline void apply_##N(int o, void *a_, const void *b_)                          \
    {                                                                               \
        R *a = a_;                                                                  \
        const R *b = b_;                                                            \
        R re = a[0], im = a[1];                                                     \
        switch (o) {                                                                \
        case O_SUM: a[0] = re + b[0]; a[1] = im + b[1]; break;                      \
        case O_PROD: a[0] = re * b[0] - im * b[1]; a[1] = re * b[1] + im * b[0]; break; \
        case O_REPLACE: a[0] = b[0]; a[1] = b[1]; break;                            \
        }                                                                           \
    }

#define DEF_LOGICAL(N, T)                                                           \
    static inline void set_##N(void *p, long long v, long long w) { (void) w; *(T *) p = (T) (v != 0); } \
    static inline void get_##N(const void *p, long double *v, long double *w)              \
    { *v = (long double) *(const T *) p; *w = 0; }                                  \
    static inline void apply_##N(int o, void *a_, const void *b_)                          \
    {                                                                               \
        T *a = a_, b = *(const T *) b_;                                             \
        switch (o) {                                                                \
        case O_LAND: *a = (T) (*a && b); break;                                     \
        case O_LOR: *a = (T) (*a || b); break;                                      \
        case O_LXOR: *a = (T) (!*a != !b); break;                                   \
        case O_REPLACE: *a = b; break;                                              \
        }                                                                           \
    }

/* MAXLOC/MINLOC: larger/smaller value wins; on a tie the smaller index. */
#define DEF_PAIR(N, V, I)                                                           \
    struct pair_##N { V v; I i; };                                                  \
    static inline void set_##N(void *p, long long v, long long w)                          \
    { ((struct pair_##N *) p)->v = (V) v; ((struct pair_##N *) p)->i = (I) w; }     \
    static inline void get_##N(const void *p, long double *v, long double *w)              \
    { *v = ((const struct pair_##N *) p)->v; *w = ((const struct pair_##N *) p)->i; } \
    static inline void apply_##N(int o, void *a_, const void *b_)                          \
    {                                                                               \
        struct pair_##N *a = a_;                                                    \
        const struct pair_##N *b = b_;                                              \
        switch (o) {                                                                \
        case O_MAXLOC:                                                              \
            if (b->v > a->v || (b->v == a->v && b->i < a->i)) *a = *b;              \
            break;                                                                  \
        case O_MINLOC:                                                              \
            if (b->v < a->v || (b->v == a->v && b->i < a->i)) *a = *b;              \
            break;                                                                  \
        case O_REPLACE: *a = *b; break;                                             \
        }                                                                           \
    }

DEF_INT(char_s, signed char)
DEF_INT(char_u, unsigned char)
DEF_INT(short_s, short)
DEF_INT(short_u, unsigned short)
DEF_INT(int_s, int)
DEF_INT(int_u, unsigned)
DEF_INT(long_s, long)
DEF_INT(long_u, unsigned long)
DEF_INT(llong_s, long long)
DEF_INT(llong_u, unsigned long long)
DEF_INT(i8, int8_t)
DEF_INT(u8, uint8_t)
DEF_INT(i16, int16_t)
DEF_INT(u16, uint16_t)
DEF_INT(i32, int32_t)
DEF_INT(u32, uint32_t)
DEF_INT(i64, int64_t)
DEF_INT(u64, uint64_t)
DEF_INT(aint, MPI_Aint)
DEF_INT(offset, MPI_Offset)
DEF_INT(count, MPI_Count)
DEF_INT(byte, unsigned char)
DEF_INT(char_c, char)
DEF_INT(wchar, wchar_t)
DEF_FLT(flt, float)
DEF_FLT(dbl, double)
DEF_FLT(ldbl, long double)
DEF_CPLX(cflt, float _Complex, float)
DEF_CPLX(cdbl, double _Complex, double)
DEF_CPLX(cldbl, long double _Complex, long double)
DEF_LOGICAL(cbool, bool)
DEF_LOGICAL(flogical, int)
DEF_LOGICAL(flogical1, int8_t)
DEF_PAIR(float_int, float, int)
DEF_PAIR(double_int, double, int)
DEF_PAIR(long_int, long, int)
DEF_PAIR(two_int, int, int)
DEF_PAIR(short_int, short, int)
DEF_PAIR(ldouble_int, long double, int)
DEF_PAIR(two_real, float, float)
DEF_PAIR(two_dbl, double, double)

#define T_(name, dt, ops, sgn, N, ctype) {name, dt, ops, sgn, sizeof(ctype), set_##N, get_##N, apply_##N}
static inline int type_table(struct tentry *tt)
{
    const struct tentry t[] = {
        T_("MPI_SIGNED_CHAR", MPI_SIGNED_CHAR, C_INTEGER, 1, char_s, signed char),
        T_("MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR, C_INTEGER, 0, char_u, unsigned char),
        T_("MPI_SHORT", MPI_SHORT, C_INTEGER, 1, short_s, short),
        T_("MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT, C_INTEGER, 0, short_u, unsigned short),
        T_("MPI_INT", MPI_INT, C_INTEGER, 1, int_s, int),
        T_("MPI_UNSIGNED", MPI_UNSIGNED, C_INTEGER, 0, int_u, unsigned),
        T_("MPI_LONG", MPI_LONG, C_INTEGER, 1, long_s, long),
        T_("MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG, C_INTEGER, 0, long_u, unsigned long),
        T_("MPI_LONG_LONG", MPI_LONG_LONG, C_INTEGER, 1, llong_s, long long),
        T_("MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG, C_INTEGER, 0, llong_u, unsigned long long),
        T_("MPI_INT8_T", MPI_INT8_T, C_INTEGER, 1, i8, int8_t),
        T_("MPI_UINT8_T", MPI_UINT8_T, C_INTEGER, 0, u8, uint8_t),
        T_("MPI_INT16_T", MPI_INT16_T, C_INTEGER, 1, i16, int16_t),
        T_("MPI_UINT16_T", MPI_UINT16_T, C_INTEGER, 0, u16, uint16_t),
        T_("MPI_INT32_T", MPI_INT32_T, C_INTEGER, 1, i32, int32_t),
        T_("MPI_UINT32_T", MPI_UINT32_T, C_INTEGER, 0, u32, uint32_t),
        T_("MPI_INT64_T", MPI_INT64_T, C_INTEGER, 1, i64, int64_t),
        T_("MPI_UINT64_T", MPI_UINT64_T, C_INTEGER, 0, u64, uint64_t),
        T_("MPI_INTEGER", MPI_INTEGER, F_INTEGER, 1, int_s, int),
#ifdef MPI_INTEGER1
        T_("MPI_INTEGER1", MPI_INTEGER1, F_INTEGER, 1, i8, int8_t),
#endif
#ifdef MPI_INTEGER2
        T_("MPI_INTEGER2", MPI_INTEGER2, F_INTEGER, 1, i16, int16_t),
#endif
#ifdef MPI_INTEGER4
        T_("MPI_INTEGER4", MPI_INTEGER4, F_INTEGER, 1, i32, int32_t),
#endif
#ifdef MPI_INTEGER8
        T_("MPI_INTEGER8", MPI_INTEGER8, F_INTEGER, 1, i64, int64_t),
#endif
        T_("MPI_AINT", MPI_AINT, MULTI_LANG, 1, aint, MPI_Aint),
        /* Open MPI 4.1.4's own reduction (MPI_Reduce_local too) orders
         * MPI_OFFSET as unsigned: MAX(-4, 3) gives -4.  That is a bug of the
         * op framework, not of a one-sided component, so MPI_OFFSET gets
         * non-negative values here; MPI_AINT and MPI_COUNT keep negatives. */
        T_("MPI_OFFSET", MPI_OFFSET, MULTI_LANG, 0, offset, MPI_Offset),
        T_("MPI_COUNT", MPI_COUNT, MULTI_LANG, 1, count, MPI_Count),
        T_("MPI_FLOAT", MPI_FLOAT, FLOATING, 1, flt, float),
        T_("MPI_DOUBLE", MPI_DOUBLE, FLOATING, 1, dbl, double),
        T_("MPI_LONG_DOUBLE", MPI_LONG_DOUBLE, FLOATING, 1, ldbl, long double),
        T_("MPI_REAL", MPI_REAL, FLOATING, 1, flt, float),
        T_("MPI_DOUBLE_PRECISION", MPI_DOUBLE_PRECISION, FLOATING, 1, dbl, double),
#ifdef MPI_REAL4
        T_("MPI_REAL4", MPI_REAL4, FLOATING, 1, flt, float),
#endif
#ifdef MPI_REAL8
        T_("MPI_REAL8", MPI_REAL8, FLOATING, 1, dbl, double),
#endif
        T_("MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX, COMPLEX_T, 1, cflt, float _Complex),
        T_("MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX, COMPLEX_T, 1, cdbl, double _Complex),
        T_("MPI_C_LONG_DOUBLE_COMPLEX", MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX_T, 1, cldbl, long double _Complex),
        T_("MPI_COMPLEX", MPI_COMPLEX, COMPLEX_T, 1, cflt, float _Complex),
        T_("MPI_DOUBLE_COMPLEX", MPI_DOUBLE_COMPLEX, COMPLEX_T, 1, cdbl, double _Complex),
#ifdef MPI_COMPLEX8
        T_("MPI_COMPLEX8", MPI_COMPLEX8, COMPLEX_T, 1, cflt, float _Complex),
#endif
#ifdef MPI_COMPLEX16
        T_("MPI_COMPLEX16", MPI_COMPLEX16, COMPLEX_T, 1, cdbl, double _Complex),
#endif
        T_("MPI_CXX_FLOAT_COMPLEX", MPI_CXX_FLOAT_COMPLEX, COMPLEX_T, 1, cflt, float _Complex),
        T_("MPI_CXX_DOUBLE_COMPLEX", MPI_CXX_DOUBLE_COMPLEX, COMPLEX_T, 1, cdbl, double _Complex),
        T_("MPI_CXX_LONG_DOUBLE_COMPLEX", MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX_T, 1, cldbl,
           long double _Complex),
        T_("MPI_C_BOOL", MPI_C_BOOL, LOGICAL_T, 0, cbool, bool),
        T_("MPI_LOGICAL", MPI_LOGICAL, LOGICAL_T, 0, flogical, int),
#ifdef MPI_LOGICAL1
        T_("MPI_LOGICAL1", MPI_LOGICAL1, LOGICAL_T, 0, flogical1, int8_t),
#endif
#ifdef MPI_LOGICAL4
        T_("MPI_LOGICAL4", MPI_LOGICAL4, LOGICAL_T, 0, flogical, int),
#endif
        T_("MPI_CXX_BOOL", MPI_CXX_BOOL, LOGICAL_T, 0, cbool, bool),
        T_("MPI_BYTE", MPI_BYTE, BYTE_T, 0, byte, unsigned char),
        /* character types: no reduction is defined on them; only
         * MPI_REPLACE and MPI_NO_OP apply */
        T_("MPI_CHAR", MPI_CHAR, ANYTYPE, 0, char_c, char),
        T_("MPI_WCHAR", MPI_WCHAR, ANYTYPE, 0, wchar, wchar_t),
        T_("MPI_CHARACTER", MPI_CHARACTER, ANYTYPE, 0, char_c, char),
        T_("MPI_FLOAT_INT", MPI_FLOAT_INT, PAIR_T, 1, float_int, struct pair_float_int),
        T_("MPI_DOUBLE_INT", MPI_DOUBLE_INT, PAIR_T, 1, double_int, struct pair_double_int),
        T_("MPI_LONG_INT", MPI_LONG_INT, PAIR_T, 1, long_int, struct pair_long_int),
        T_("MPI_2INT", MPI_2INT, PAIR_T, 1, two_int, struct pair_two_int),
        T_("MPI_SHORT_INT", MPI_SHORT_INT, PAIR_T, 1, short_int, struct pair_short_int),
        T_("MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, PAIR_T, 1, ldouble_int, struct pair_ldouble_int),
        T_("MPI_2INTEGER", MPI_2INTEGER, PAIR_T, 1, two_int, struct pair_two_int),
        T_("MPI_2REAL", MPI_2REAL, PAIR_T, 1, two_real, struct pair_two_real),
        T_("MPI_2DOUBLE_PRECISION", MPI_2DOUBLE_PRECISION, PAIR_T, 1, two_dbl, struct pair_two_dbl),
    };
    /* An Open MPI built without Fortran leaves MPI_INTEGER1 etc. out (the
     * #ifdefs above) and defines MPI_INTEGER and the other Fortran types
     * with size 0 and no reductions: leave every Fortran type out then. */
    static const char *const fortran[] = {
        "MPI_INTEGER", "MPI_INTEGER1", "MPI_INTEGER2", "MPI_INTEGER4", "MPI_INTEGER8",
        "MPI_REAL", "MPI_DOUBLE_PRECISION", "MPI_REAL4", "MPI_REAL8", "MPI_COMPLEX",
        "MPI_DOUBLE_COMPLEX", "MPI_COMPLEX8", "MPI_COMPLEX16", "MPI_LOGICAL", "MPI_LOGICAL1",
        "MPI_LOGICAL4", "MPI_CHARACTER", "MPI_2INTEGER", "MPI_2REAL", "MPI_2DOUBLE_PRECISION",
    };
    int n = 0, fsize = 0;
    MPI_Type_size(MPI_INTEGER, &fsize);
    for (size_t k = 0; k < sizeof t / sizeof t[0]; ++k) {
        int is_fortran = 0;
        for (size_t f = 0; f < sizeof fortran / sizeof fortran[0]; ++f) {
            is_fortran |= 0 == strcmp(t[k].name, fortran[f]);
        }
        if (is_fortran && 0 == fsize) {
            continue;
        }
        if (tt) {
            tt[n] = t[k];
        }
        ++n;
    }
    return n;
}
#undef T_

/* Test value of (pseudo-)origin r (r == size: the target's initial value)
 * for operation o at element i of target t. */
static inline void test_value(const struct tentry *te, int o, int r, int t, int i,
                              long long *v, long long *w)
{
    *v = 0;
    *w = 0;
    switch (o) {
    case O_SUM: *v = (r + 2 * i + t) % 11 + 1; *w = (r + i) % 5; break;
    case O_PROD: *v = (r + i + t) % 3 == 0 ? 2 : 1; *w = (r + 2 * i) % 4 == 0; break;
    case O_MAX: case O_MIN: *v = (r * 7 + i * 5 + t * 3) % 23 - (te->is_signed ? 11 : 0); break;
    case O_LAND: case O_LOR: case O_LXOR: *v = (r + i + t) % 3; break;
    case O_BAND: case O_BOR: case O_BXOR: *v = ((r + 3) * 37 + i * 11 + t * 5) & 0x7f; break;
    case O_MAXLOC: case O_MINLOC:
        *v = (r + i) % 3 - (te->is_signed ? 1 : 0);
        *w = r * 10 + i;            /* the initial value has the largest index */
        break;
    case O_REPLACE: *v = r * 16 + i + t + 1; *w = *v % 7; break;
    case O_NO_OP: *v = 99 + r; *w = r; break;
    }
}

static inline void fill_values(const struct tentry *te, void *buf, int n, int o, int r, int t)
{
    long long v, w;
    memset(buf, 0, n * te->sz);
    for (int i = 0; i < n; ++i) {
        test_value(te, o, r, t, i, &v, &w);
        te->set((char *) buf + i * te->sz, v, w);
    }
}

/* A window of n elements of type te of the given flavor (disp unit: the
 * type size; dynamic: 1, one attached region).  typed_disp() gives the
 * target displacement of element i at rank t for the open window. */
static MPI_Aint *typed_addr;
static size_t typed_sz;
static void *typed_mem;
static const char *typed_flavor = "allocate";   /* for case labels */

static inline void *typed_win_open(const struct tentry *te, int flavor, int n, MPI_Win *win)
{
    void *base = NULL;
    MPI_Aint bytes = (MPI_Aint) n * te->sz, a;
    typed_sz = te->sz;
    typed_flavor = flavor_name[flavor];
    typed_addr = NULL;
    typed_mem = NULL;
    switch (flavor) {
    case FL_ALLOCATE:
        OK(MPI_Win_allocate(bytes, (int) te->sz, MPI_INFO_NULL, MPI_COMM_WORLD, &base, win));
        break;
    case FL_SHARED:
        OK(MPI_Win_allocate_shared(bytes, (int) te->sz, MPI_INFO_NULL, MPI_COMM_WORLD, &base, win));
        break;
    case FL_CREATE:
        typed_mem = base = malloc(bytes);
        OK(MPI_Win_create(base, bytes, (int) te->sz, MPI_INFO_NULL, MPI_COMM_WORLD, win));
        break;
    case FL_DYNAMIC:
        typed_mem = base = malloc(bytes);
        OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, win));
        OK(MPI_Win_attach(*win, base, bytes));
        MPI_Get_address(base, &a);
        typed_addr = malloc(size * sizeof(MPI_Aint));
        MPI_Allgather(&a, 1, MPI_AINT, typed_addr, 1, MPI_AINT, MPI_COMM_WORLD);
        break;
    }
    MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
    return base;
}

static inline void typed_win_close(MPI_Win *win)
{
    if (typed_addr) {
        OK(MPI_Win_detach(*win, typed_mem));
    }
    OK(MPI_Win_free(win));
    free(typed_mem);
    free(typed_addr);
    typed_mem = NULL;
    typed_addr = NULL;
}

static inline MPI_Aint typed_disp(int t, int i)
{
    return typed_addr ? MPI_Aint_add(typed_addr[t], (MPI_Aint) i * typed_sz) : i;
}

/* The types also run on create, dynamic and shared windows: one of each
 * kind of element (1, 2, 4, 8, 16 bytes, pairs, complex). */
static inline int flavor_subset(const char *name)
{
    static const char *const sub[] = {"MPI_UINT8_T", "MPI_SHORT", "MPI_INT", "MPI_DOUBLE",
                                      "MPI_UNSIGNED_LONG_LONG", "MPI_LONG_DOUBLE",
                                      "MPI_C_DOUBLE_COMPLEX", "MPI_C_BOOL", "MPI_FLOAT_INT",
                                      "MPI_2INT"};
    for (size_t k = 0; k < sizeof sub / sizeof sub[0]; ++k) {
        if (!strcmp(sub[k], name)) {
            return 1;
        }
    }
    return 0;
}

/* Runs body on a window of n elements of every type in every flavor (the
 * flavor_subset types only, except for allocated windows), as one test
 * case each.  argv[1] picks one type by name ("all": every type), argv[2]
 * one flavor by number. */
static inline void for_each_typed_window(int argc, char **argv, int n,
                                         void (*body)(const struct tentry *te, MPI_Win win,
                                                      void *base))
{
    struct tentry tt[96];
    int nt = type_table(tt);
    for (int fl = 0; fl < NFLAVORS; ++fl) {
        if (!rwin_flavor_ok(fl, MPI_COMM_WORLD)) {
            continue;
        }
        for (int k = 0; k < nt; ++k) {
            const struct tentry *te = &tt[k];
            MPI_Win win;
            if ((argc > 1 && strcmp(argv[1], "all") && strcmp(argv[1], te->name)) ||
                (argc > 2 && fl != atoi(argv[2])) ||
                (FL_ALLOCATE != fl && !flavor_subset(te->name))) {
                continue;
            }
            set_case("%s window for %s", flavor_name[fl], te->name);
            body(te, win, typed_win_open(te, fl, n, &win));
            typed_win_close(&win);
        }
    }
}

/* Compares n elements of got against exp; reports mismatches. */
static inline int compare_values(const struct tentry *te, const char *what, const void *exp,
                                 const void *got, int n)
{
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        long double ev, ew, gv, gw;
        te->get((const char *) exp + i * te->sz, &ev, &ew);
        te->get((const char *) got + i * te->sz, &gv, &gw);
        if (ev != gv || ew != gw) {
            ompix_test_failures++;
            if (report_count++ < REPORT_LIMIT) {
                printf("rank %d: case %s: %s index %d: expected (%Lg, %Lg), got (%Lg, %Lg)\n",
                       rank, report_label, what, i, ev, ew, gv, gw);
                fflush(stdout);
            }
            bad++;
        }
    }
    return bad;
}

#endif
