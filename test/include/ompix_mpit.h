/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Reading MCA parameters as MPI_T control variables, for the tests that
 * check what Open MPI's variable system made of a setting, and ompix's
 * process-wide performance counters.  Needs MPI_T_init_thread first.
 */
#ifndef OMPIX_MPIT_H
#define OMPIX_MPIT_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* The value of the control variable NAME into BUF, which holds CAPACITY
 * elements of its type (1 for an int; Open MPI 4.1 asks 2048 chars of a
 * string variable): MPI_SUCCESS, or the MPI_T error of the lookup
 * (MPI_T_ERR_INVALID_NAME: no such variable now). */
static inline int ompix_mpit_cvar_read(const char *name, void *buf, int capacity)
{
    MPI_T_cvar_handle handle;
    int index, count, rc;

    rc = MPI_T_cvar_get_index(name, &index);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = MPI_T_cvar_handle_alloc(index, NULL, &handle, &count);
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    rc = count <= capacity ? MPI_T_cvar_read(handle, buf) : MPI_T_ERR_INVALID;
    MPI_T_cvar_handle_free(&handle);
    return rc;
}

static inline int ompix_mpit_cvar_int(const char *name, int *value)
{
    return ompix_mpit_cvar_read(name, value, 1);
}

/* How many values the enumeration of the control variable NAME has (0: it
 * has none, -1: no such variable); VALUE_NAME, when not NULL, is the name
 * of the value VALUE, or left empty. */
static inline int ompix_mpit_cvar_enum(const char *name, int value, char *value_name, int len)
{
    char vname[256], ename[256];
    int index, vlen = sizeof(vname), elen = sizeof(ename), verbosity, bind, scope, num = 0;
    MPI_Datatype type;
    MPI_T_enum enumtype;

    if (MPI_SUCCESS != MPI_T_cvar_get_index(name, &index) ||
        MPI_SUCCESS != MPI_T_cvar_get_info(index, vname, &vlen, &verbosity, &type, &enumtype,
                                           NULL, NULL, &bind, &scope)) {
        return -1;
    }
    if (NULL != value_name) {
        value_name[0] = '\0';
    }
    if (MPI_T_ENUM_NULL == enumtype || MPI_SUCCESS != MPI_T_enum_get_info(enumtype, &num,
                                                                          ename, &elen)) {
        return 0;
    }
    for (int i = 0; i < num && NULL != value_name; ++i) {
        int v, l = len;
        if (MPI_SUCCESS == MPI_T_enum_get_item(enumtype, i, &v, value_name, &l) && v == value) {
            return num;
        }
        value_name[0] = '\0';
    }
    return num;
}

/* A handle in SESSION on the process-wide counter NAME, after checking it
 * is what ompix registers (a read-only continuous counter of unsigned long
 * long bound to no object, with a description); MPI_T_PVAR_HANDLE_NULL if
 * anything differs. */
static inline MPI_T_pvar_handle ompix_mpit_pvar_counter(MPI_T_pvar_session session,
                                                        const char *name)
{
    char n[256], desc[1024];
    int nlen = sizeof(n), dlen = sizeof(desc), verb, cls, bind, ro, cont, atomic;
    int index = -1, count = 0;
    MPI_Datatype type;
    MPI_T_enum et;
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;

    if (MPI_SUCCESS != MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index)
        || MPI_SUCCESS != MPI_T_pvar_get_info(index, n, &nlen, &verb, &cls, &type, &et, desc,
                                              &dlen, &bind, &ro, &cont, &atomic)
        || 0 != strcmp(n, name) || MPI_T_PVAR_CLASS_COUNTER != cls
        || MPI_UNSIGNED_LONG_LONG != type || MPI_T_BIND_NO_OBJECT != bind || !ro || !cont
        || dlen <= 1) {
        return MPI_T_PVAR_HANDLE_NULL;
    }
    if (MPI_SUCCESS != MPI_T_pvar_handle_alloc(session, index, NULL, &h, &count)
        || 1 != count) {
        return MPI_T_PVAR_HANDLE_NULL;
    }
    return h;
}

/* A counter's value through handle H (~0 if the read fails). */
static inline unsigned long long ompix_mpit_pvar_value(MPI_T_pvar_session session,
                                                       MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ULL;

    if (MPI_SUCCESS != MPI_T_pvar_read(session, h, &v)) {
        return ~0ULL;
    }
    return v;
}

/* Whether counter NAME reads WANT through H; says what it read if not. */
static inline int ompix_mpit_pvar_expect(MPI_T_pvar_session session, MPI_T_pvar_handle h,
                                         const char *name, unsigned long long want)
{
    unsigned long long v = ompix_mpit_pvar_value(session, h);

    if (v != want) {
        fprintf(stderr, "%s: %llu, expected %llu\n", name, v, want);
    }
    return v == want;
}

#endif /* OMPIX_MPIT_H */
