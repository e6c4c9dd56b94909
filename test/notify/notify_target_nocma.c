/*
 * ompix-test: np=2,3 tls=tcp pml=ob1 timeout=120 mca="osc rdma2,sm osc_rdma2_cma 0"
 *
 * notify_target.c over TCP with CMA off, so that window data goes through
 * UCX's puts and gets (emulated with active messages) instead of CMA:
 * put_notify of a vector target type is a UCX put, a worker fence and the
 * notification's active message behind it; get_notify a UCX get, an
 * endpoint flush, then the notification.  The target checks the data at
 * the moment it takes each notification.
 */
#include "notify_target.c"
