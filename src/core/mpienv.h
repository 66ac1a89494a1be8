/* fcsim — the environment Open MPI starts in, for a plain fcsim process (no mpiexec).
 *
 * A process started without mpiexec is an Open MPI "singleton". Left to its defaults, Open
 * MPI 4.1 (Debian 12) makes such a process
 *  - create its session folder under the shared $TMPDIR/ompi.<host>.<uid>: processes started
 *    together race to create it (`mkdir ... File exists`, then `orte_session_dir failed`:
 *    Open MPI issues #7049, #8510), so a batch of runs, `study refine -j N` or a test suite
 *    fails at random on a fresh machine;
 *  - start a PMIx server whose data store lives in shared-memory files, which fail under a
 *    file-size limit or on a full /tmp with 16 lines of PMIx errors;
 *  - probe the network devices for UCX at every start (0.3 s here).
 * FcMPIEnvPrepare, called before PetscInitialize, sets what a one-process run needs (each only
 * when the user has not set it: a user's own MPI settings always win), and nothing at all when
 * the process was started by mpiexec or a PMI/PMIx launcher:
 *   OMPI_MCA_ess_singleton_isolated=1  no daemon, no PMIx server for a singleton
 *   OMPI_MCA_pml=ob1, OMPI_MCA_btl=self  one process talks to itself only: no UCX probing
 *   PMIX_MCA_gds=hash                  PMIx data kept in memory, never in files
 *   OMPI_MCA_orte_tmpdir_base=DIR      a session folder of this process's own
 *                                      ($TMPDIR/fcsim-mpi-<pid>-XXXXXX), removed at exit
 * A child fcsim process (study refine) must be started with the environment as it was before
 * this call (src/fcsim.c copies it first), so that it prepares a folder of its own.
 * doc/architecture.md ("Start-up") says the same. */
#ifndef FC_MPIENV_H
#define FC_MPIENV_H

/* Before PetscInitialize (plain C: nothing of PETSc exists yet). Never fails: when the private
 * folder cannot be made (no writable $TMPDIR), Open MPI's own default is left in place. Also
 * removes the private folders of fcsim processes of this user that are gone (killed with
 * SIGKILL before they could remove theirs). */
void FcMPIEnvPrepare(void);

/* Remove this process's private session folder (after PetscFinalize, or from the interrupt
 * watchdog before _exit). Safe to call more than once; registered with atexit as well. */
void FcMPIEnvCleanup(void);

#endif
