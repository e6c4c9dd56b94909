/*
 * Copyright (c) 2026 The ompix developers.
 *
 * Where windows are created: the generic notify path's per-window state
 * (its hidden communicator above all) must exist on every process of a
 * window before any of them issues a target-notified operation, and the
 * only collective moment a window has is its creation.  An MPI extension
 * is not called there, so we wrap each osc component's osc_select, the
 * function ompi_osc_base_select calls on every process of the creating
 * communicator once it has picked the component.  The wrappers are
 * installed when the osc framework opens its components (in MPI_Init):
 * this file's ELF constructor, run when the library holding the extension
 * is loaded (libmpi in a source tree, libompix in the plugin build),
 * supplies the framework's open function, which Open MPI leaves NULL for
 * osc.  osc/rdma2 serves notified RMA itself: its windows get only the
 * draft's attributes here (mpiext_notify_attr.c), as every other window.
 */

#include "ompi_config.h"

#include <stdbool.h>
#include <string.h>

#include "opal/mca/base/base.h"
#include "opal/util/output.h"
#include "ompi/mca/osc/base/base.h"
#include "ompi/mca/osc/osc.h"

#include "mpiext_notify_entry.h"

/* Components wrapped (Open MPI 4.1 ships five osc components, ompix one;
 * every one is wrapped, for the attributes, even with the setup off). */
#define OMPIX_NOTIFY_HOOK_MAX 16

static ompi_osc_base_component_select_fn_t ompix_notify_hook_orig[OMPIX_NOTIFY_HOOK_MAX];
/* Which of them is osc/rdma2 (no generic setup there). */
static bool ompix_notify_hook_native[OMPIX_NOTIFY_HOOK_MAX];

/* MCA parameter mpi_notify_generic_setup: a program that never uses
 * notified RMA on windows of stock components can spare their creation
 * the setup (a communicator creation and an allgather; their free one
 * more collective) and then needs MPIX_Win_set_num_notify before
 * target-notified operations there. */
static bool ompix_notify_hook_enabled = true;

/* The window exists on this process once the component's select returned
 * success; the setup is collective over comm like the select itself (every
 * process of comm picks the same component).  A failed setup leaves the
 * window usable, without target notifications (ompix_notify_gen_setup
 * says why). */
static int ompix_notify_hook_selected(int i, struct ompi_win_t *win, void **base, size_t size,
                                      int disp_unit, struct ompi_communicator_t *comm,
                                      struct opal_info_t *info, int flavor, int *model)
{
    int rc = ompix_notify_hook_orig[i](win, base, size, disp_unit, comm, info, flavor, model);
    int64_t *slots, *local;
    int num = OMPIX_NOTIFY_DEFAULT_SLOTS;

    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    if (ompix_notify_hook_native[i]) {
        /* rdma2's count is its MCA parameter; its notify_slots only reads. */
        (void) ompix_notify_ops(win)->notify_slots(win, &slots, &local, &num);
    } else if (ompix_notify_hook_enabled) {
        ompix_notify_gen_setup(win, comm, size, disp_unit);
    }
    ompix_notify_attr_set(win, num);
    return rc;
}

/* One trampoline per wrapped component: a select function is not told
 * which component it belongs to. */
#define OMPIX_NOTIFY_HOOK_FN(i)                                                        \
    static int ompix_notify_hook_select_##i(struct ompi_win_t *win, void **base,       \
                                            size_t size, int disp_unit,                \
                                            struct ompi_communicator_t *comm,          \
                                            struct opal_info_t *info, int flavor,      \
                                            int *model)                                \
    {                                                                                  \
        return ompix_notify_hook_selected(i, win, base, size, disp_unit, comm, info,   \
                                          flavor, model);                              \
    }
OMPIX_NOTIFY_HOOK_FN(0)
OMPIX_NOTIFY_HOOK_FN(1)
OMPIX_NOTIFY_HOOK_FN(2)
OMPIX_NOTIFY_HOOK_FN(3)
OMPIX_NOTIFY_HOOK_FN(4)
OMPIX_NOTIFY_HOOK_FN(5)
OMPIX_NOTIFY_HOOK_FN(6)
OMPIX_NOTIFY_HOOK_FN(7)
OMPIX_NOTIFY_HOOK_FN(8)
OMPIX_NOTIFY_HOOK_FN(9)
OMPIX_NOTIFY_HOOK_FN(10)
OMPIX_NOTIFY_HOOK_FN(11)
OMPIX_NOTIFY_HOOK_FN(12)
OMPIX_NOTIFY_HOOK_FN(13)
OMPIX_NOTIFY_HOOK_FN(14)
OMPIX_NOTIFY_HOOK_FN(15)

static const ompi_osc_base_component_select_fn_t ompix_notify_hook_fns[OMPIX_NOTIFY_HOOK_MAX] = {
    ompix_notify_hook_select_0,  ompix_notify_hook_select_1,  ompix_notify_hook_select_2,
    ompix_notify_hook_select_3,  ompix_notify_hook_select_4,  ompix_notify_hook_select_5,
    ompix_notify_hook_select_6,  ompix_notify_hook_select_7,  ompix_notify_hook_select_8,
    ompix_notify_hook_select_9,  ompix_notify_hook_select_10, ompix_notify_hook_select_11,
    ompix_notify_hook_select_12, ompix_notify_hook_select_13, ompix_notify_hook_select_14,
    ompix_notify_hook_select_15,
};

/* The osc framework's open: Open MPI's default (open every component),
 * then wrap their select functions. */
static int ompix_notify_hook_open(mca_base_open_flag_t flags)
{
    mca_base_component_list_item_t *cli;
    int rc = mca_base_framework_components_open(&ompi_osc_base_framework, flags), n = 0;

    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    (void) mca_base_var_register("ompi", "mpi", NULL, "notify_generic_setup",
                                 "Set up notified RMA (MPIX_Put_notify, ...) inside the creation "
                                 "of every window not served by osc/rdma2, so that nothing needs "
                                 "to be called first (false: those windows need "
                                 "MPIX_Win_set_num_notify before target-notified operations, and "
                                 "their creation and free skip a communicator creation and two "
                                 "collectives)",
                                 MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5,
                                 MCA_BASE_VAR_SCOPE_READONLY, &ompix_notify_hook_enabled);
    ompix_notify_mpit_register();
    OPAL_LIST_FOREACH(cli, &ompi_osc_base_framework.framework_components,
                      mca_base_component_list_item_t) {
        ompi_osc_base_component_t *comp = (ompi_osc_base_component_t *) cli->cli_component;
        const char *name = comp->osc_version.mca_component_name;

        if (n == OMPIX_NOTIFY_HOOK_MAX) {
            opal_output(0, "ompix notify: more than %d osc components; windows of %s need "
                        "MPIX_Win_set_num_notify before target-notified operations and "
                        "have the notification attributes only after it",
                        OMPIX_NOTIFY_HOOK_MAX, name);
            continue;
        }
        ompix_notify_hook_native[n] = (0 == strcmp(name, "rdma2"));
        ompix_notify_hook_orig[n] = comp->osc_select;
        comp->osc_select = ompix_notify_hook_fns[n++];
    }
    return OPAL_SUCCESS;
}

/* At load time, before MPI_Init opens the framework. */
static void __attribute__((constructor)) ompix_notify_hook_install(void)
{
    if (NULL == ompi_osc_base_framework.framework_open &&
        0 == (ompi_osc_base_framework.framework_flags & MCA_BASE_FRAMEWORK_FLAG_OPEN)) {
        ompi_osc_base_framework.framework_open = ompix_notify_hook_open;
    }
}
