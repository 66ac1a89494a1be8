/* fcsim — the state of one contact after a solve (written to run.h5, probes count the active). */
#ifndef FC_CONTACT_STATUS_H
#define FC_CONTACT_STATUS_H

typedef enum {
  FC_CONTACT_SEPARATED = 0, /* r_n = 0 (or below 1e-10 of the largest r_n) */
  FC_CONTACT_STICK     = 1, /* r inside the cone */
  FC_CONTACT_SLIP      = 2  /* r on the cone's boundary with a sliding velocity, or frictionless and active */
} FcContactStatus;

#endif
