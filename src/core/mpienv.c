/* fcsim — the environment Open MPI starts in, for a plain fcsim process (see mpienv.h). */
#define _XOPEN_SOURCE   700 /* mkdtemp, nftw, setenv, kill */
#define _DEFAULT_SOURCE     /* flock, dirfd */
#include "mpienv.h"
#include "fsutil.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PREFIX "fcsim-mpi-"
#define LOCK   ".lock"

static char private_dir[4096]; /* this process's session folder; "" when none */
static int  lock_fd = -1;      /* flock'ed for the process's lifetime: a dead owner's is free */
static int  owner_pid;         /* the folder belongs to this pid (a forked child must not remove it) */

/* Variables a launcher sets in the processes it starts (mpiexec/orted, PMI, PMIx: Slurm's srun
 * --mpi=pmix included). With any of them the process is not a singleton: nothing is changed. */
static int Launched_Private(void)
{
  static const char *const marks[] = {"OMPI_COMM_WORLD_SIZE", "OMPI_MCA_orte_hnp_uri", "PMIX_RANK", "PMIX_NAMESPACE", "PMI_RANK", "PMI_SIZE", "PMI_FD"};
  for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
    if (getenv(marks[i])) return 1;
  return 0;
}

static const char *TmpBase_Private(void)
{
  const char *t = getenv("TMPDIR");
  return t && t[0] == '/' ? t : "/tmp";
}

/* Remove the session folders that fcsim processes of this user left behind when they were
 * killed (SIGKILL, a crash): a folder is stale when its lock can be taken — flock locks die
 * with their process, whatever its pid namespace — and it is older than 10 s (so that a folder
 * whose owner is between mkdtemp and flock is never taken). */
static void RemoveStale_Private(const char *base)
{
  DIR           *d = opendir(base);
  struct dirent *e;
  char           path[4096], lock[4200];
  time_t         now = time(NULL);

  if (!d) return;
  while ((e = readdir(d))) {
    struct stat st;
    int         fd;
    if (strncmp(e->d_name, PREFIX, sizeof PREFIX - 1)) continue;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", base, e->d_name) >= sizeof path) continue;
    if (lstat(path, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || now - st.st_ctime < 10) continue;
    snprintf(lock, sizeof lock, "%s/" LOCK, path);
    fd = open(lock, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue; /* no lock file: not a folder this code made, or its owner could not lock */
    if (!flock(fd, LOCK_EX | LOCK_NB)) FcRemoveTree(path);
    close(fd);
  }
  closedir(d);
}

/* setenv without overriding the user's value; remembers nothing (the names are fixed). */
static void Default_Private(const char *name, const char *value) { (void)setenv(name, value, 0); }

void FcMPIEnvPrepare(void)
{
  const char *base;
  char        lock[4200];

  if (Launched_Private()) return;
  Default_Private("OMPI_MCA_ess_singleton_isolated", "1");
  Default_Private("OMPI_MCA_pml", "ob1");
  Default_Private("OMPI_MCA_btl", "self");
  Default_Private("PMIX_MCA_gds", "hash");
  if (getenv("OMPI_MCA_orte_tmpdir_base")) return; /* the user's own session folder */
  base = TmpBase_Private();
  RemoveStale_Private(base);
  if ((size_t)snprintf(private_dir, sizeof private_dir, "%s/" PREFIX "%ld-XXXXXX", base, (long)getpid()) >= sizeof private_dir || !mkdtemp(private_dir)) {
    private_dir[0] = 0; /* Open MPI's default, as without fcsim's help */
    return;
  }
  owner_pid = (int)getpid();
  snprintf(lock, sizeof lock, "%s/" LOCK, private_dir);
  lock_fd = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (lock_fd >= 0 && flock(lock_fd, LOCK_EX | LOCK_NB)) {
    close(lock_fd);
    lock_fd = -1;
  }
  (void)setenv("OMPI_MCA_orte_tmpdir_base", private_dir, 1);
  atexit(FcMPIEnvCleanup);
}

void FcMPIEnvCleanup(void)
{
  if (!private_dir[0] || (int)getpid() != owner_pid) return;
  FcRemoveTree(private_dir);
  private_dir[0] = 0;
  if (lock_fd >= 0) close(lock_fd);
  lock_fd = -1;
}
