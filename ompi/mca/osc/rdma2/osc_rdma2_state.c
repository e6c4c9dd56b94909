/*
 * Copyright (c) 2026 The ompix developers.
 *
 * The layout of a window's state block (osc_rdma2_state.h).
 */
#include "ompi_config.h"

#include "osc_rdma2_state.h"

#define MCA_OSC_RDMA2_LINE 64

static size_t mca_osc_rdma2_line_up(size_t off)
{
    return (off + MCA_OSC_RDMA2_LINE - 1) & ~(size_t) (MCA_OSC_RDMA2_LINE - 1);
}

void mca_osc_rdma2_state_layout(mca_osc_rdma2_state_layout_t *layout, int size_comm,
                                bool dynamic)
{
    size_t off;

    layout->posted = mca_osc_rdma2_line_up(sizeof(mca_osc_rdma2_state_t));
    off = layout->posted + (size_t) size_comm * sizeof(uint64_t);
    layout->regions = dynamic ? mca_osc_rdma2_line_up(off) : 0;
    if (dynamic) {
        off = layout->regions + sizeof(mca_osc_rdma2_regions_t);
    }
    layout->size = mca_osc_rdma2_line_up(off);
}
