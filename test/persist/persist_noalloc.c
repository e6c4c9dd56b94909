/*
 * ompix-test: np=1,2,4 tls=shm,tcp pml=ob1,ucx timeout=120 valgrind=no
 *
 * MPI_Start of a planned collective allocates nothing: every malloc,
 * calloc and realloc called from coll/persist's code is counted (this
 * program's definitions interpose libc's for every library) across 1000
 * start+wait cycles of each persistent collective.  Allocations that the
 * transports make to grow their own pools are not coll/persist's, and are
 * the same for any implementation.  It also checks that coll/persist is
 * the component that planned them (its init code allocates), under the
 * default selection.  Not under valgrind, whose allocator replaces these
 * definitions.
 *
 * coll/persist's code is found after MPI_Init in every loaded object: its
 * own DSO (mca_coll_persist.so: the plugin build, 4.1's in-tree build), or
 * its functions inside the library that links it in (5.0's in-tree build
 * links components into libmpi), read from that library's ELF symbol
 * table: those named mca_coll_persist_*, and the local ones of its source
 * files (coll_persist_*.c: out-of-line copies of header inlines such as
 * OBJ_NEW's).  A stripped library leaves none to find, and the test fails
 * saying so rather than count nothing.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ompix_test.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

/* coll/persist's code: address ranges [lo, hi), sorted once found. */
struct code_range {
    uintptr_t lo, hi;
};
static struct code_range *ranges;
static size_t nranges, ranges_cap;

static volatile int counting;
static long allocations;

static void add_range(uintptr_t lo, uintptr_t hi)
{
    if (nranges == ranges_cap) {
        ranges_cap = ranges_cap ? 2 * ranges_cap : 256;
        ranges = __libc_realloc(ranges, ranges_cap * sizeof(*ranges));
        if (NULL == ranges) {
            abort();
        }
    }
    ranges[nranges].lo = lo;
    ranges[nranges++].hi = hi;
}

/* Whether a source file's name (an STT_FILE symbol) is coll/persist's. */
static int persist_file(const char *name)
{
    const char *base = strrchr(name, '/');
    return 0 == strncmp(base ? base + 1 : name, "coll_persist", strlen("coll_persist"));
}

/* The functions of coll/persist in one symbol table, loaded at base.  The
 * linker writes each input file's local symbols after its STT_FILE.  (The
 * ELF32_ and ELF64_ ST_BIND and ST_TYPE macros are the same.) */
static void scan_symbols(const char *img, const ElfW(Shdr) *symtab, const ElfW(Shdr) *strtab,
                         uintptr_t base)
{
    const ElfW(Sym) *sym = (const ElfW(Sym) *) (img + symtab->sh_offset);
    size_t n = symtab->sh_size / sizeof(*sym);
    const char *names = img + strtab->sh_offset;
    int ours = 0;

    for (size_t i = 0; i < n; ++i) {
        const char *name = names + sym[i].st_name;
        int local = STB_LOCAL == ELF64_ST_BIND(sym[i].st_info);
        if (STT_FILE == ELF64_ST_TYPE(sym[i].st_info)) {
            ours = persist_file(name);
        } else if (STT_FUNC == ELF64_ST_TYPE(sym[i].st_info) && SHN_UNDEF != sym[i].st_shndx
                   && 0 != sym[i].st_size
                   && (0 == strncmp(name, "mca_coll_persist_", strlen("mca_coll_persist_"))
                       || (ours && local))) {
            add_range(base + sym[i].st_value, base + sym[i].st_value + sym[i].st_size);
        }
    }
}

/* The functions of coll/persist in the object file at path. */
static void scan_object(const char *path, uintptr_t base)
{
    struct stat st;
    const char *img;
    const ElfW(Ehdr) *eh;
    const ElfW(Shdr) *sh;
    int fd = open(path, O_RDONLY);

    if (fd < 0) {
        return;
    }
    img = 0 == fstat(fd, &st) && (size_t) st.st_size >= sizeof(*eh)
              ? mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    close(fd);
    if (MAP_FAILED == img) {
        return;
    }
    eh = (const ElfW(Ehdr) *) img;
    sh = (const ElfW(Shdr) *) (img + eh->e_shoff);
    if (0 == memcmp(eh->e_ident, ELFMAG, SELFMAG) && 0 != eh->e_shoff
        && eh->e_shoff + (size_t) eh->e_shnum * sizeof(*sh) <= (size_t) st.st_size) {
        for (int i = 0; i < eh->e_shnum; ++i) {
            if (SHT_SYMTAB == sh[i].sh_type && sh[i].sh_link < eh->e_shnum) {
                scan_symbols(img, &sh[i], &sh[sh[i].sh_link], base);
            }
        }
    }
    munmap((void *) img, st.st_size);
}

/* dl_iterate_phdr's callback: coll/persist's DSO whole (its executable
 * segments), any other library through its symbol table. */
static int scan_loaded(struct dl_phdr_info *info, size_t size, void *arg)
{
    const char *base = strrchr(info->dlpi_name, '/');

    (void) size;
    (void) arg;
    if ('\0' == info->dlpi_name[0]) {
        return 0;                       /* this program */
    }
    if (NULL != strstr(base ? base + 1 : info->dlpi_name, "coll_persist")) {
        for (int i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
            if (PT_LOAD == ph->p_type && (ph->p_flags & PF_X)) {
                add_range(info->dlpi_addr + ph->p_vaddr, info->dlpi_addr + ph->p_vaddr + ph->p_memsz);
            }
        }
    } else {
        scan_object(info->dlpi_name, info->dlpi_addr);
    }
    return 0;
}

static int range_cmp(const void *a, const void *b)
{
    const struct code_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Whether the code at addr is coll/persist's. */
static int persist_code(uintptr_t addr)
{
    size_t lo = 0, hi = nranges;

    while (lo < hi) {                   /* the last range that starts at or below addr */
        size_t mid = (lo + hi) / 2;
        if (ranges[mid].lo <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo > 0 && addr < ranges[lo - 1].hi;
}

static void note(void *caller)
{
    if (counting && persist_code((uintptr_t) caller)) {
        allocations++;
    }
}

void *malloc(size_t n) { note(__builtin_return_address(0)); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { note(__builtin_return_address(0)); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { note(__builtin_return_address(0)); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }

#define N 8
int main(int argc, char **argv)
{
    static int sb[N * 64], rb[N * 64];
    MPI_Request r[8];
    int n = 0;

    ompix_test_init(&argc, &argv);
    dl_iterate_phdr(scan_loaded, NULL);
    qsort(ranges, nranges, sizeof(*ranges), range_cmp);
    if (0 == nranges) printf("rank %d: coll/persist's code not found (no DSO, no symbols)\n", rank);
    CHECK(nranges > 0);
    counting = 1;                       /* init allocates: proves coll/persist serves them */
    MPIX_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Bcast_init(sb, N, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Allreduce_init(sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Allgather_init(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Alltoall_init(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Reduce_init(sb, rb, N, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Gather_init(sb, N, MPI_INT, rb, N, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    MPIX_Scan_init(sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[n++]);
    counting = 0;
    if (0 == allocations) printf("rank %d: coll/persist did not plan these collectives\n", rank);
    CHECK(allocations > 0);
    for (int k = 0; k < n; ++k) {
        MPI_Start(&r[k]);
        MPI_Wait(&r[k], MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < n; ++k) {
        allocations = 0;
        counting = 1;
        for (int it = 0; it < 1000; ++it) {
            MPI_Start(&r[k]);
            MPI_Wait(&r[k], MPI_STATUS_IGNORE);
        }
        counting = 0;
        if (allocations) printf("rank %d: collective %d allocated %ld times in 1000 starts\n", rank, k, allocations);
        CHECK(0 == allocations);
    }
    for (int k = 0; k < n; ++k) MPI_Request_free(&r[k]);
    __libc_free(ranges);
    return ompix_test_finish("persist_noalloc");
}
