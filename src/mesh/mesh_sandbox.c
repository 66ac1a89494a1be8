/* fcsim — meshing a .geo script in a sandboxed child process (doc/mesh.md, "The sandbox").
 *
 * A .geo is a program in Gmsh's language, and that language can run shell commands, write
 * files and end the process. The text check (mesh_script.c) refuses the constructs it knows,
 * but it must reproduce Gmsh's lexer exactly to see what Gmsh will run, and it cannot see what
 * Gmsh does on its own. So the script runs in a child process that cannot do harm whatever it
 * says:
 *
 *  - fork() without exec (loading fcsim's shared libraries again costs ~0.2 s per exec): the
 *    child has a copy of the parent's Gmsh session. It never calls MPI or PETSc's parallel
 *    machinery and leaves with _exit (no atexit handler, no library destructor runs); it dies
 *    with fcsim (PR_SET_PDEATHSIG), and the parent kills it on an interrupt, at the time limit
 *    and on any error of its own;
 *  - a seccomp filter (libseccomp) stops, with SIGSYS, every system call that runs a program,
 *    starts a process (clone without CLONE_THREAD), opens a socket, opens a file for writing
 *    or changes the file system, or reaches into another process; clone3 answers ENOSYS so that
 *    glibc creates threads with clone. It is a deny list: Gmsh, OpenCASCADE and glibc use many
 *    harmless calls (mmap, futex, sched_*, getrandom, ...) that an allow list would break on the
 *    next version of any of them;
 *  - Landlock, where the kernel has it: reading below the mesh file's folder (the root of the
 *    text check) and the system's read-only folders, writing nowhere;
 *  - resource limits: no core file, no file growth, CPU time and address space bounded, and the
 *    child is the kernel's first choice if memory runs out (oom_score_adj 1000), so that a
 *    script that needs more memory than the machine has ends the child, not fcsim.
 *
 * The mesh comes back through a pipe and no file is written: the child meshes the script
 * (Mesh.MeshSizeFactor for `refine`, and the order conversion, whose mid-edge nodes must sit on
 * the CAD geometry that only the child has), then writes the model's mesh (every entity with
 * its nodes, its elements by type, the physical groups with their names and entities) as
 * records; the parent rebuilds it as discrete entities in its own Gmsh session, and the reader
 * (mesh_gmsh.c) goes on as with any model. The coordinates travel as raw doubles and the
 * entities, nodes and elements in Gmsh's own order, so the mesh is bit for bit the one the
 * script made in-process. An error in the child (Gmsh's message, an input error) travels back
 * as a record and becomes the parent's one line. */
#define _GNU_SOURCE
#include "mesh_impl.h"
#include "../core/fsutil.h"
#include <gmshc.h>
#include <seccomp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/landlock.h>
#include <linux/sched.h>

FcMeshGeoOptions FcMeshGeo = {FC_MESH_GEO_TIMEOUT_DEFAULT, PETSC_FALSE, PETSC_FALSE};

/* Node and element tags travel as Gmsh's size_t arrays, read as uint64_t. */
_Static_assert(sizeof(size_t) == sizeof(uint64_t), "node and element tags travel as 64-bit size_t");

/* ---------------------------------------------------------------------------------------- */
/* The records of the pipe: a header (kind, payload length), then the payload, in the native
 * byte order (both ends are this process's image). */
enum {
  REC_NODES = 1, /* i32 dim, i32 tag, u64 n; n u64 tags; 3n f64 coordinates */
  REC_ELEMS,     /* i32 dim, i32 tag, u32 ntypes, u32 0; per type: i32 type, i32 0, u64 ne, u64 nn;
                    ne u64 element tags; nn u64 node tags */
  REC_GROUP,     /* i32 dim, i32 tag, u32 name length, u32 n; the name; n i32 entities */
  REC_END,       /* the mesh is complete */
  REC_ERROR,     /* i32 PETSc error code, i32 FcMeshFault; the message (one line) */
  REC_SETUP,     /* the sandbox could not be set up: the reason */
  REC_SYSCALL,   /* i64 system call number stopped by the filter */
  REC_EXIT       /* the script ended the process (Gmsh's Exit): i32 status */
};

typedef struct {
  uint32_t kind, pad;
  uint64_t len;
} RecHead;

/* Exit statuses of the child that say more than the records (the parent reports them when a
 * record could not be sent). */
#define CHILD_EXIT_PIPE 97 /* the parent stopped reading */

/* ---------------------------------------------------------------------------------------- */
/* Child: writing records. Everything here is async-signal-safe where the SIGSYS handler and
 * the atexit handler use it (write(2) only). */
static int    child_fd = -1;
static char   child_buf[1 << 16];
static size_t child_nbuf;
static int    child_serializing; /* records under way: a trap now is not the script's */

static void WriteAllOrDie(const void *p, size_t n)
{
  const char *c = p;
  while (n) {
    ssize_t w = write(child_fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) _exit(CHILD_EXIT_PIPE);
    c += w;
    n -= (size_t)w;
  }
}

static void ChildFlush(void)
{
  WriteAllOrDie(child_buf, child_nbuf);
  child_nbuf = 0;
}

static void ChildPut(const void *p, size_t n)
{
  if (child_nbuf + n > sizeof child_buf) ChildFlush();
  if (n > sizeof child_buf) WriteAllOrDie(p, n);
  else {
    memcpy(child_buf + child_nbuf, p, n);
    child_nbuf += n;
  }
}

static void ChildHead(uint32_t kind, uint64_t len)
{
  RecHead h = {kind, 0, len};
  ChildPut(&h, sizeof h);
}

/* A record with a text payload, sent at once (unbuffered: the signal handlers use it). */
static void ChildText(uint32_t kind, const void *prefix, size_t nprefix, const char *text)
{
  size_t  n = strlen(text);
  RecHead h = {kind, 0, nprefix + n};
  WriteAllOrDie(&h, sizeof h);
  if (nprefix) WriteAllOrDie(prefix, nprefix);
  WriteAllOrDie(text, n);
}

/* The filter's verdict (SCMP_ACT_TRAP): SIGSYS with the number of the call. */
static void ChildOnSigsys(int sig, siginfo_t *si, void *uc)
{
  int64_t nr = si->si_syscall;
  RecHead h  = {REC_SYSCALL, 0, sizeof nr};
  (void)sig;
  (void)uc;
  if (child_serializing) _exit(CHILD_EXIT_PIPE);
  WriteAllOrDie(&h, sizeof h);
  WriteAllOrDie(&nr, sizeof nr);
  _exit(0);
}

/* Gmsh's `Exit` calls exit(): say so, and end before any other exit handler runs. */
static void ChildOnExit(void)
{
  int32_t st = 0;
  RecHead h  = {REC_EXIT, 0, sizeof st};
  WriteAllOrDie(&h, sizeof h);
  WriteAllOrDie(&st, sizeof st);
  _exit(0);
}

/* The first error message raised in the child, as fcsim's handler would have printed it. */
static char           child_msg[4096];
static PetscErrorCode child_code;

static PetscErrorCode ChildErrorHandler(
  MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  (void)comm;
  (void)line;
  (void)file;
  (void)ctx;
  if (p == PETSC_ERROR_INITIAL && !child_code) {
    child_code = n;
    if (n == FC_ERR_INPUT) snprintf(child_msg, sizeof child_msg, "%s", mess ? mess : "");
    else snprintf(child_msg, sizeof child_msg, "%s (in %s)", mess && mess[0] ? mess : "error", fun ? fun : "?");
  }
  return n;
}

/* ---------------------------------------------------------------------------------------- */
/* Child: the sandbox. Each step returns NULL or the reason it failed. */

/* Landlock (not in every C library's headers: the kernel ABI, include/uapi/linux/landlock.h). */
#define FC_LL_FS_EXECUTE    (1ULL << 0)
#define FC_LL_FS_WRITE_FILE (1ULL << 1)
#define FC_LL_FS_READ_FILE  (1ULL << 2)
#define FC_LL_FS_READ_DIR   (1ULL << 3)
#define FC_LL_FS_ALL_V1     ((1ULL << 13) - 1) /* EXECUTE .. MAKE_SYM */
#define FC_LL_FS_REFER      (1ULL << 13)       /* ABI 2 */
#define FC_LL_FS_TRUNCATE   (1ULL << 14)       /* ABI 3 */
#define FC_LL_FS_IOCTL_DEV  (1ULL << 15)       /* ABI 5 */
#define FC_LL_NET_ALL       3ULL               /* ABI 4: bind, connect TCP */
#define FC_LL_SCOPE_ALL     3ULL               /* ABI 6: abstract UNIX sockets, signals */

typedef struct {
  uint64_t handled_access_fs, handled_access_net, scoped;
} LandlockRulesetAttr;

/* Landlock's ABI version, 0 when the kernel has none (not built, or not enabled at boot). */
static int LandlockABI(void)
{
  long v = syscall(SYS_landlock_create_ruleset, NULL, 0, (uint32_t)LANDLOCK_CREATE_RULESET_VERSION);
  return v < 0 ? 0 : (int)v;
}

static const char *LandlockAllow(int ruleset, const char *path, uint64_t access, PetscBool required)
{
  struct landlock_path_beneath_attr pb;
  int                               fd = open(path, O_PATH | O_CLOEXEC);

  if (fd < 0) return required ? "cannot open the mesh file's folder" : NULL;
  pb.allowed_access = access;
  pb.parent_fd      = fd;
  if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0)) {
    close(fd);
    return "landlock_add_rule failed";
  }
  close(fd);
  return NULL;
}

/* Read-only below `root` and the system's read-only folders, no write, no execution anywhere.
 * *applied = 0 when the kernel has no Landlock (the seccomp filter still forbids every write). */
static const char *ChildLandlock(const char *root, int *applied)
{
  /* Gmsh and OpenCASCADE may read resource files (/usr/share), glibc and OpenMP the CPU list
   * (/sys/devices/system/cpu, /proc/self): nothing there is the user's. */
  static const char *const system_ro[] = {"/usr", "/etc/ld.so.cache", "/proc/self", "/sys/devices/system/cpu", "/dev/null", "/dev/urandom"};
  const int                abi         = LandlockABI();
  LandlockRulesetAttr      attr;
  size_t                   size = sizeof attr.handled_access_fs;
  const uint64_t           ro   = FC_LL_FS_READ_FILE | FC_LL_FS_READ_DIR;
  const char              *err  = NULL;
  int                      rs;

  *applied = 0;
  if (abi <= 0) return NULL;
  memset(&attr, 0, sizeof attr);
  attr.handled_access_fs = FC_LL_FS_ALL_V1;
  if (abi >= 2) attr.handled_access_fs |= FC_LL_FS_REFER;
  if (abi >= 3) attr.handled_access_fs |= FC_LL_FS_TRUNCATE;
  if (abi >= 5) attr.handled_access_fs |= FC_LL_FS_IOCTL_DEV;
  if (abi >= 4) {
    attr.handled_access_net = FC_LL_NET_ALL;
    size                    = 2 * sizeof(uint64_t);
  }
  if (abi >= 6) {
    attr.scoped = FC_LL_SCOPE_ALL;
    size        = sizeof attr;
  }
  rs = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (rs < 0) return "landlock_create_ruleset failed";
  err = LandlockAllow(rs, root, ro, PETSC_TRUE);
  for (size_t i = 0; !err && i < sizeof system_ro / sizeof system_ro[0]; i++) {
    struct stat st;
    /* READ_DIR only applies to folders */
    if (stat(system_ro[i], &st)) continue;
    err = LandlockAllow(rs, system_ro[i], S_ISDIR(st.st_mode) ? ro : FC_LL_FS_READ_FILE, PETSC_FALSE);
  }
  if (!err && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) err = "prctl(PR_SET_NO_NEW_PRIVS) failed";
  if (!err && syscall(SYS_landlock_restrict_self, rs, 0)) err = "landlock_restrict_self failed";
  close(rs);
  if (!err) *applied = abi;
  return err;
}

/* The seccomp deny list (doc/mesh.md, "The sandbox"). */
static const char *ChildSeccomp(void)
{
  /* refused outright: programs, processes, sockets, other processes, the file system's
   * structure, kernel facilities a mesher never needs (and io_uring, whose operations the
   * filter would not see) */
  // clang-format off
  static const int trap[] = {
    SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork),
    SCMP_SYS(socket), SCMP_SYS(socketpair), SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen), SCMP_SYS(accept), SCMP_SYS(accept4),
    SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_getfd), SCMP_SYS(pidfd_send_signal), SCMP_SYS(tkill),
    SCMP_SYS(creat), SCMP_SYS(mkdir), SCMP_SYS(mkdirat),
    SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(symlink), SCMP_SYS(symlinkat),
    SCMP_SYS(truncate), SCMP_SYS(ftruncate), SCMP_SYS(fallocate), SCMP_SYS(mknod), SCMP_SYS(mknodat),
    SCMP_SYS(chmod), SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(chown), SCMP_SYS(fchown), SCMP_SYS(fchownat), SCMP_SYS(lchown),
    SCMP_SYS(utime), SCMP_SYS(utimes), SCMP_SYS(utimensat), SCMP_SYS(futimesat),
    SCMP_SYS(setxattr), SCMP_SYS(lsetxattr), SCMP_SYS(fsetxattr), SCMP_SYS(removexattr), SCMP_SYS(lremovexattr), SCMP_SYS(fremovexattr),
    SCMP_SYS(name_to_handle_at), SCMP_SYS(open_by_handle_at),
    SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot), SCMP_SYS(unshare), SCMP_SYS(setns),
    SCMP_SYS(bpf), SCMP_SYS(perf_event_open), SCMP_SYS(userfaultfd), SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key),
    SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module), SCMP_SYS(kexec_load), SCMP_SYS(kexec_file_load), SCMP_SYS(reboot),
    SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(sethostname), SCMP_SYS(setdomainname), SCMP_SYS(acct), SCMP_SYS(quotactl), SCMP_SYS(iopl), SCMP_SYS(ioperm),
    SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register),
    SCMP_SYS(shmget), SCMP_SYS(shmat), SCMP_SYS(msgget), SCMP_SYS(semget), SCMP_SYS(mq_open),
  };
  // clang-format on
  const pid_t     self = getpid();
  scmp_filter_ctx f    = seccomp_init(SCMP_ACT_ALLOW);
  int             rc   = f ? 0 : -ENOMEM;
  const char     *what = "seccomp_init";

  for (size_t i = 0; !rc && i < sizeof trap / sizeof trap[0]; i++)
    if (trap[i] >= 0) rc = seccomp_rule_add(f, SCMP_ACT_TRAP, trap[i], 0), what = "seccomp_rule_add";
  /* Gmsh removes its scratch file ~/.gmsh-tmp at every open, and carries on when it cannot:
   * removing fails (EACCES) rather than stopping the child */
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(unlink), 0);
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(unlinkat), 0);
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(rmdir), 0);
  /* a new process is a clone without CLONE_THREAD; clone3 hides its flags in memory the filter
   * cannot read: ENOSYS makes glibc fall back to clone for threads */
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  /* opening for writing, creating or truncating; openat2's flags are in memory too */
  {
    static const uint64_t wflags[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND};
    for (size_t k = 0; !rc && k < sizeof wflags / sizeof wflags[0]; k++) {
      rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, wflags[k], wflags[k]));
      if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, wflags[k], wflags[k]));
    }
  }
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
  /* signals only to itself (raise, abort); no keystrokes pushed into a terminal */
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self));
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self));
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(rt_sigqueueinfo), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self));
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(rt_tgsigqueueinfo), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self));
  if (!rc) rc = seccomp_rule_add(f, SCMP_ACT_TRAP, SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_EQ, TIOCSTI));
  if (!rc) what = "seccomp_load", rc = seccomp_load(f);
  if (f) seccomp_release(f);
  return rc ? what : NULL;
}

/* Everything but the pipe closed; 0, 1 and 2 on /dev/null (nothing the script does reaches the
 * terminal, and Gmsh's messages go to its logger). */
static const char *ChildFiles(int keep)
{
  int  null = open("/dev/null", O_RDWR | O_CLOEXEC);
  DIR *d;

  if (null < 0) return "cannot open /dev/null";
  for (int fd = 0; fd < 3; fd++)
    if (dup2(null, fd) < 0) return "dup2 failed";
  close(null);
  if ((d = opendir("/proc/self/fd"))) {
    struct dirent *e;
    int            dfd = dirfd(d);
    while ((e = readdir(d))) {
      char *end;
      long  fd = strtol(e->d_name, &end, 10);
      if (*end || end == e->d_name || fd < 3 || fd == keep || fd == dfd) continue;
      close((int)fd);
    }
    closedir(d);
  } else
    for (int fd = 3; fd < 4096; fd++)
      if (fd != keep) close(fd);
  return NULL;
}

static void ChildLimits(rlim_t as_limit)
{
  struct rlimit r;
  const rlim_t  cpu = (rlim_t)FcMeshGeo.timeout + 10;
  int           fd;

  r.rlim_cur = r.rlim_max = 0;
  setrlimit(RLIMIT_CORE, &r);  /* a crash writes no core file */
  setrlimit(RLIMIT_FSIZE, &r); /* and no file can grow */
  r.rlim_cur = cpu;            /* SIGXCPU: a backstop behind the parent's wall-clock limit */
  r.rlim_max = cpu + 5;
  setrlimit(RLIMIT_CPU, &r);
  /* never above a limit fcsim was started with */
  if (as_limit && !getrlimit(RLIMIT_AS, &r) && (r.rlim_max == RLIM_INFINITY || as_limit < r.rlim_max)) {
    r.rlim_cur = r.rlim_max = as_limit;
    setrlimit(RLIMIT_AS, &r);
  }
  /* out of memory: the kernel takes the child first */
  fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t w = write(fd, "1000", 4);
    (void)w;
    close(fd);
  }
}

/* ---------------------------------------------------------------------------------------- */
/* Child: the model's mesh into records. */

static void ChildSendError(PetscErrorCode code, FcMeshFault fault, const char *msg)
{
  int32_t pre[2] = {(int32_t)code, (int32_t)fault};
  ChildFlush();
  ChildText(REC_ERROR, pre, sizeof pre, msg);
}

static int ChildSerialize(void)
{
  int   *dimtags  = NULL, ierr;
  size_t ndimtags = 0;

  child_serializing = 1;
  gmshModelGetEntities(&dimtags, &ndimtags, -1, &ierr);
  if (ierr) return -1;
  /* every entity with its nodes first: elements refer to nodes of other entities */
  for (size_t i = 0; i < ndimtags / 2; i++) {
    int32_t  dt[2] = {dimtags[2 * i], dimtags[2 * i + 1]};
    size_t  *tags = NULL, ntags = 0, ncoord = 0, npc = 0;
    double  *coord = NULL, *pc = NULL;
    uint64_t n;
    gmshModelMeshGetNodes(&tags, &ntags, &coord, &ncoord, &pc, &npc, dt[0], dt[1], 0, 0, &ierr);
    gmshFree(pc);
    if (ierr || ncoord != 3 * ntags) {
      gmshFree(tags);
      gmshFree(coord);
      gmshFree(dimtags);
      return -1;
    }
    n = ntags;
    ChildHead(REC_NODES, 2 * sizeof(int32_t) + sizeof n + n * (sizeof(uint64_t) + 3 * sizeof(double)));
    ChildPut(dt, sizeof dt);
    ChildPut(&n, sizeof n);
    ChildPut(tags, ntags * sizeof(uint64_t)); /* size_t is uint64_t (asserted below) */
    ChildPut(coord, ncoord * sizeof(double));
    gmshFree(tags);
    gmshFree(coord);
  }
  for (size_t i = 0; i < ndimtags / 2; i++) {
    int32_t  dt[2]  = {dimtags[2 * i], dimtags[2 * i + 1]};
    int     *types  = NULL;
    size_t   ntypes = 0, **etags = NULL, *netags = NULL, nnetags = 0, **ntags = NULL, *nntags = NULL, nnntags = 0;
    uint64_t len = 2 * sizeof(int32_t) + 2 * sizeof(uint32_t);
    uint32_t nt[2];

    gmshModelMeshGetElements(&types, &ntypes, &etags, &netags, &nnetags, &ntags, &nntags, &nnntags, dt[0], dt[1], &ierr);
    if (ierr) {
      gmshFree(dimtags);
      return -1;
    }
    if (ntypes) {
      for (size_t t = 0; t < ntypes; t++) len += 2 * sizeof(int32_t) + 2 * sizeof(uint64_t) + (netags[t] + nntags[t]) * sizeof(uint64_t);
      nt[0] = (uint32_t)ntypes;
      nt[1] = 0;
      ChildHead(REC_ELEMS, len);
      ChildPut(dt, sizeof dt);
      ChildPut(nt, sizeof nt);
      for (size_t t = 0; t < ntypes; t++) {
        int32_t  ty[2] = {types[t], 0};
        uint64_t ne = netags[t], nn = nntags[t];
        ChildPut(ty, sizeof ty);
        ChildPut(&ne, sizeof ne);
        ChildPut(&nn, sizeof nn);
        ChildPut(etags[t], ne * sizeof(uint64_t));
        ChildPut(ntags[t], nn * sizeof(uint64_t));
      }
    }
    FcMeshGmshFreeElements_Private(types, ntypes, etags, netags, ntags, nntags);
  }
  gmshFree(dimtags);
  dimtags = NULL;
  gmshModelGetPhysicalGroups(&dimtags, &ndimtags, -1, &ierr);
  if (ierr) return -1;
  for (size_t i = 0; i < ndimtags / 2; i++) {
    int32_t  dt[2] = {dimtags[2 * i], dimtags[2 * i + 1]};
    char    *name  = NULL;
    int     *ents  = NULL;
    size_t   nents = 0;
    uint32_t sz[2];
    gmshModelGetPhysicalName(dt[0], dt[1], &name, &ierr);
    if (!ierr) gmshModelGetEntitiesForPhysicalGroup(dt[0], dt[1], &ents, &nents, &ierr);
    if (ierr) {
      gmshFree(name);
      gmshFree(dimtags);
      return -1;
    }
    sz[0] = (uint32_t)strlen(name);
    sz[1] = (uint32_t)nents;
    ChildHead(REC_GROUP, sizeof dt + sizeof sz + sz[0] + nents * sizeof(int32_t));
    ChildPut(dt, sizeof dt);
    ChildPut(sz, sizeof sz);
    ChildPut(name, sz[0]);
    for (size_t k = 0; k < nents; k++) {
      int32_t e = ents[k];
      ChildPut(&e, sizeof e);
    }
    gmshFree(name);
    gmshFree(ents);
  }
  gmshFree(dimtags);
  ChildHead(REC_END, 0);
  ChildFlush();
  return 0;
}

typedef struct {
  const char *root;
  pid_t       parent;
  rlim_t      as_limit;
  int         fd;
} ChildSetup;

static void ChildMain(const ChildSetup *s, PetscErrorCode (*work)(void *, FcMeshFault *), void *ctx) __attribute__((noreturn));
static void ChildMain(const ChildSetup *s, PetscErrorCode (*work)(void *, FcMeshFault *), void *ctx)
{
  /* signals PETSc and the parent catch: the child's own crash must end it, never run PETSc's
   * handler (which would call MPI_Abort) */
  static const int dflt[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGXCPU, SIGPIPE, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD};
  struct sigaction sa;
  const char      *err;
  int              landlock = 0;
  FcMeshFault      fault    = FC_MESH_FAULT_OTHER;
  PetscErrorCode   rc;

  child_fd = s->fd;
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != s->parent) _exit(CHILD_EXIT_PIPE);
  for (size_t i = 0; i < sizeof dflt / sizeof dflt[0]; i++) signal(dflt[i], SIG_DFL);
  (void)setsid(); /* no controlling terminal: /dev/tty cannot be opened */
  if ((err = ChildFiles(s->fd))) {
    ChildText(REC_SETUP, NULL, 0, err);
    _exit(0);
  }
  ChildLimits(s->as_limit);
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = ChildOnSigsys;
  sa.sa_flags     = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSYS, &sa, NULL) || atexit(ChildOnExit)) {
    ChildText(REC_SETUP, NULL, 0, "cannot install the child's handlers");
    _exit(0);
  }
  if ((err = ChildLandlock(s->root, &landlock))) {
    ChildText(REC_SETUP, NULL, 0, err);
    _exit(0);
  }
  if ((err = ChildSeccomp())) {
    char why[128];
    snprintf(why, sizeof why, "%s failed: %s", err, "the kernel or libseccomp refused the filter");
    ChildText(REC_SETUP, NULL, 0, why);
    _exit(0);
  }
  if (PetscPushErrorHandler(ChildErrorHandler, NULL)) {
    ChildText(REC_SETUP, NULL, 0, "cannot install the child's error handler");
    _exit(0);
  }
  rc = work(ctx, &fault);
  if (rc) ChildSendError(rc, fault, child_msg[0] ? child_msg : "error");
  else if (ChildSerialize()) ChildSendError(PETSC_ERR_LIB, FC_MESH_FAULT_OTHER, "gmsh: cannot read back the mesh it made");
  _exit(0);
}

/* ---------------------------------------------------------------------------------------- */
/* Parent: reading the records. */

typedef struct Rec_ {
  RecHead      h;
  char        *p;
  struct Rec_ *next;
} Rec;

typedef struct {
  int             fd;
  pid_t           pid;
  struct timespec deadline;
  const char     *file;
  PetscBool       timed_out, interrupted, eof;
} Reader;

static double Now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Read n bytes; *got < n at end of file. Polls every 100 ms for an interrupt and the deadline. */
static PetscErrorCode ReadFull(Reader *r, double deadline, void *buf, size_t n, size_t *got)
{
  char *c = buf;

  PetscFunctionBegin;
  *got = 0;
  while (*got < n) {
    struct pollfd pfd = {r->fd, POLLIN, 0};
    int           k;
    ssize_t       m;
    if (FcInterrupted) {
      r->interrupted = PETSC_TRUE;
      PetscFunctionReturn(0);
    }
    if (Now() > deadline) {
      r->timed_out = PETSC_TRUE;
      PetscFunctionReturn(0);
    }
    k = poll(&pfd, 1, 100);
    if (k < 0 && errno == EINTR) continue;
    PetscCheck(k >= 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "poll on the meshing process's pipe failed: %s", strerror(errno));
    if (!k) continue;
    m = read(r->fd, c + *got, n - *got);
    if (m < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    PetscCheck(m >= 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "read from the meshing process failed: %s", strerror(errno));
    if (!m) {
      r->eof = PETSC_TRUE;
      PetscFunctionReturn(0);
    }
    *got += (size_t)m;
  }
  PetscFunctionReturn(0);
}

static void RecFree(Rec *r)
{
  while (r) {
    Rec *n = r->next;
    free(r->p);
    free(r);
    r = n;
  }
}

/* A cursor over a record's payload that refuses to read past it (the child ran a hostile
 * script: its bytes are checked like any input). NODES and ELEMS payloads keep their arrays
 * 8-byte aligned (every field before them is a multiple of 8 bytes, and the payload is a
 * malloc block), so Gmsh is given pointers into the payload. */
typedef struct {
  const char *p;
  size_t      left;
  PetscBool   bad;
} Cur;

static const void *Take(Cur *c, size_t n, uint64_t count)
{
  const void *q = c->p;
  if (c->bad || (count && n > SIZE_MAX / count) || n * count > c->left) {
    c->bad = PETSC_TRUE;
    return NULL;
  }
  c->p += n * count;
  c->left -= n * count;
  return q;
}

static void Get(Cur *c, void *dst, size_t n)
{
  const void *q = Take(c, n, 1);
  if (q) memcpy(dst, q, n);
  else memset(dst, 0, n);
}

static PetscErrorCode Malformed(const char *file, const char *what) { return FcInputError(file, NULL, "the meshing process sent a malformed mesh (%s)", what); }

static PetscErrorCode RebuildNodes(const char *file, const Rec *r)
{
  Cur         c = {r->p, r->h.len, PETSC_FALSE};
  int32_t     dt[2];
  uint64_t    n;
  const void *tags, *x;
  int         ierr;

  PetscFunctionBegin;
  Get(&c, dt, sizeof dt);
  Get(&c, &n, sizeof n);
  tags = Take(&c, sizeof(uint64_t), n);
  x    = Take(&c, 3 * sizeof(double), n);
  if (c.bad || c.left || dt[0] < 0 || dt[0] > 3) return Malformed(file, "nodes");
  gmshModelAddDiscreteEntity(dt[0], dt[1], NULL, 0, &ierr);
  if (!ierr && n) gmshModelMeshAddNodes(dt[0], dt[1], (size_t *)tags, n, (double *)x, 3 * n, NULL, 0, &ierr);
  PetscCall(FcMeshGmshCheck_Private(file, "", ierr));
  PetscFunctionReturn(0);
}

static PetscErrorCode RebuildElements(const char *file, const Rec *r)
{
  Cur            c = {r->p, r->h.len, PETSC_FALSE};
  int32_t        dt[2];
  uint32_t       nt[2];
  int           *types = NULL, ierr = 0;
  const size_t **et = NULL, **nd = NULL;
  size_t        *ne = NULL, *nn = NULL, ntypes;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  Get(&c, dt, sizeof dt);
  Get(&c, nt, sizeof nt);
  if (c.bad || dt[0] < 0 || dt[0] > 3 || nt[0] > 1024) return Malformed(file, "elements");
  ntypes = nt[0];
  types  = calloc(ntypes + 1, sizeof *types);
  et     = calloc(ntypes + 1, sizeof *et);
  nd     = calloc(ntypes + 1, sizeof *nd);
  ne     = calloc(ntypes + 1, sizeof *ne);
  nn     = calloc(ntypes + 1, sizeof *nn);
  if (!types || !et || !nd || !ne || !nn)
    rc = PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_MEM, PETSC_ERROR_INITIAL, "out of memory");
  for (size_t t = 0; t < ntypes && !rc && !c.bad; t++) {
    int32_t  ty[2];
    uint64_t v[2];
    char    *name = NULL;
    int      edim, eord, npe = 0, np;
    double  *lc  = NULL;
    size_t   nlc = 0;
    Get(&c, ty, sizeof ty);
    Get(&c, v, sizeof v);
    if (c.bad) break;
    /* the type must be one Gmsh knows, of the entity's dimension, and the node tags a whole
     * number of its elements */
    gmshModelMeshGetElementProperties(ty[0], &name, &edim, &eord, &npe, &lc, &nlc, &np, &ierr);
    gmshFree(name);
    gmshFree(lc);
    if (ierr || npe <= 0 || edim != dt[0] || v[0] > c.left / sizeof(uint64_t) || v[1] != v[0] * (uint64_t)npe) {
      c.bad = PETSC_TRUE;
      break;
    }
    types[t] = ty[0];
    ne[t]    = v[0];
    nn[t]    = v[1];
    et[t]    = Take(&c, sizeof(uint64_t), ne[t]);
    nd[t]    = Take(&c, sizeof(uint64_t), nn[t]);
  }
  if (!rc && (c.bad || c.left)) {
    /* Gmsh's own logger may hold the error of the type query: clear it */
    (void)FcMeshGmshCheck_Private(file, "", 0);
    rc = Malformed(file, "elements");
  }
  if (!rc) {
    gmshModelMeshAddElements(dt[0], dt[1], types, ntypes, et, ne, ntypes, nd, nn, ntypes, &ierr);
    rc = FcMeshGmshCheck_Private(file, "", ierr);
  }
  free(types);
  free(et);
  free(nd);
  free(ne);
  free(nn);
  PetscCall(rc);
  PetscFunctionReturn(0);
}

static PetscErrorCode RebuildGroup(const char *file, const Rec *r)
{
  Cur         c = {r->p, r->h.len, PETSC_FALSE};
  int32_t     dt[2];
  uint32_t    sz[2];
  const char *nm;
  const void *raw;
  char       *name = NULL;
  int        *ents = NULL, ierr;

  PetscFunctionBegin;
  Get(&c, dt, sizeof dt);
  Get(&c, sz, sizeof sz);
  nm  = Take(&c, 1, sz[0]);
  raw = Take(&c, sizeof(int32_t), sz[1]);
  if (c.bad || c.left || dt[0] < 0 || dt[0] > 3) return Malformed(file, "physical group");
  name = malloc((size_t)sz[0] + 1);
  ents = malloc((size_t)sz[1] * sizeof *ents + 1);
  if (!name || !ents) {
    free(name);
    free(ents);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  }
  memcpy(name, nm, sz[0]);
  name[sz[0]] = '\0';
  memcpy(ents, raw, (size_t)sz[1] * sizeof *ents);
  gmshModelAddPhysicalGroup(dt[0], ents, sz[1], dt[1], &ierr);
  if (!ierr) gmshModelSetPhysicalName(dt[0], dt[1], name, &ierr);
  free(ents);
  free(name);
  PetscCall(FcMeshGmshCheck_Private(file, "", ierr));
  PetscFunctionReturn(0);
}

/* The name and what a script was doing when the filter stopped a system call. */
static void SyscallWhat(int64_t nr, char *out, size_t len)
{
  static const struct {
    int         nr;
    const char *what;
  } known[] = {
    {SCMP_SYS(execve), "run a program"},
    {SCMP_SYS(execveat), "run a program"},
    {SCMP_SYS(fork), "start a process"},
    {SCMP_SYS(vfork), "start a process"},
    {SCMP_SYS(clone), "start a process"},
    {SCMP_SYS(socket), "open a socket"},
    {SCMP_SYS(socketpair), "open a socket"},
    {SCMP_SYS(connect), "connect a socket"},
    {SCMP_SYS(open), "open a file for writing"},
    {SCMP_SYS(openat), "open a file for writing"},
    {SCMP_SYS(creat), "create a file"},
    {SCMP_SYS(mkdir), "create a folder"},
    {SCMP_SYS(mkdirat), "create a folder"},
    {SCMP_SYS(unlink), "remove a file"},
    {SCMP_SYS(unlinkat), "remove a file"},
    {SCMP_SYS(rename), "rename a file"},
    {SCMP_SYS(renameat), "rename a file"},
    {SCMP_SYS(renameat2), "rename a file"},
    {SCMP_SYS(kill), "signal another process"},
    {SCMP_SYS(tgkill), "signal another process"},
    {SCMP_SYS(ptrace), "trace another process"},
  };
  const char *what = "make a system call a mesher never needs";
  char       *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, (int)nr);

  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (known[i].nr == nr) what = known[i].what;
  snprintf(out, len, "%s (%s)", what, name ? name : "?");
  free(name);
}

static const char *SignalName(int sig)
{
  switch (sig) {
  case SIGSEGV: return "SIGSEGV: a crash, e.g. when memory ran out";
  case SIGBUS: return "SIGBUS, a crash";
  case SIGABRT: return "SIGABRT: Gmsh aborted, e.g. out of memory";
  case SIGFPE: return "SIGFPE, a crash";
  case SIGILL: return "SIGILL, a crash";
  case SIGKILL: return "SIGKILL, e.g. by the kernel when memory ran out";
  case SIGXCPU: return "SIGXCPU: its CPU time limit";
  case SIGSYS: return "SIGSYS: a system call the sandbox forbids";
  default: return "a signal";
  }
}

/* The address space the child may use: what it has at the fork (a copy of the parent's) plus
 * the machine's physical memory, so that a script that needs more than the machine has ends
 * with an allocation failure in the child. 0 (no limit) when unknown. */
static rlim_t AddressSpaceLimit(void)
{
  long          page = sysconf(_SC_PAGESIZE), phys = sysconf(_SC_PHYS_PAGES);
  unsigned long vm = 0;
  FILE         *f;

  if (page <= 0 || phys <= 0) return 0;
  if (!(f = fopen("/proc/self/statm", "r"))) return 0;
  if (fscanf(f, "%lu", &vm) != 1) vm = 0;
  fclose(f);
  if (!vm) return 0;
  return (rlim_t)vm * (rlim_t)page + (rlim_t)phys * (rlim_t)page;
}

/* Kill the child (if still there) and collect it. */
static void Reap(pid_t pid, PetscBool kill_it, int *status)
{
  if (kill_it) kill(pid, SIGKILL);
  while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
}

/* Every record from the child until a final one (end, error, ...) or the end of the pipe, in a
 * list at *head (*term: the final record, NULL when none came). Returns an error code (a
 * malformed or truncated stream, memory); an interrupt, a timeout or the pipe's end are left in
 * rd for the caller. */
static PetscErrorCode ReadRecords(Reader *rd, double deadline, const char *file, Rec **head, Rec **term)
{
  Rec          **tail = head;
  PetscErrorCode rc   = 0;

  *head = *term = NULL;
  while (!rc && !*term) {
    Rec   *r = calloc(1, sizeof *r);
    size_t got;
    if (!r) return PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_MEM, PETSC_ERROR_INITIAL, "out of memory");
    *tail = r;
    tail  = &r->next;
    rc    = ReadFull(rd, deadline, &r->h, sizeof r->h, &got);
    if (rc || rd->interrupted || rd->timed_out || rd->eof) break;
    if (r->h.kind < REC_NODES || r->h.kind > REC_EXIT || r->h.len > ((uint64_t)1 << 40)) return Malformed(file, "unknown record");
    r->p = malloc(r->h.len + 1);
    if (!r->p)
      return PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_MEM, PETSC_ERROR_INITIAL,
        "out of memory for %llu bytes of mesh from the meshing process", (unsigned long long)r->h.len);
    rc = ReadFull(rd, deadline, r->p, r->h.len, &got);
    if (rc || rd->interrupted || rd->timed_out) break;
    if (rd->eof) return Malformed(file, "truncated record");
    r->p[r->h.len] = '\0';
    if (r->h.kind >= REC_END) *term = r;
  }
  return rc;
}

/* The error of a child that sent no final record, from how it ended. */
static PetscErrorCode NoFinalRecordError(const char *file, int status)
{
  /* a trapped call with every signal blocked (glibc's posix_spawn, behind Gmsh's SystemCall,
   * blocks them around its clone) ends the child by SIGSYS before the handler can report */
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
    return FcInputError(file, NULL,
      "the script tried to start a process (or another system call the sandbox forbids); the mesh sandbox stopped it (doc/mesh.md, \"The sandbox\")");
  if (WIFSIGNALED(status))
    return FcInputError(file, NULL, "Gmsh stopped on signal %d (%s) while meshing the script", WTERMSIG(status), SignalName(WTERMSIG(status)));
  return FcInputError(file, NULL, "the meshing process ended (status %d) before it sent the mesh", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* The error a final record other than REC_END reports (0 for REC_END); *fault from REC_ERROR. */
static PetscErrorCode FinalRecordError(const char *file, const Rec *term, FcMeshFault *fault)
{
  switch (term->h.kind) {
  case REC_ERROR: {
    int32_t pre[2] = {0, 0};
    if (term->h.len >= sizeof pre) memcpy(pre, term->p, sizeof pre);
    *fault = pre[1] == FC_MESH_FAULT_NO_TETRAHEDRA ? FC_MESH_FAULT_NO_TETRAHEDRA : FC_MESH_FAULT_OTHER;
    if (pre[0] == FC_ERR_INPUT)
      return PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, FC_ERR_INPUT, PETSC_ERROR_INITIAL, "%s",
        term->h.len >= sizeof pre ? term->p + sizeof pre : "?");
    return PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, pre[0] ? pre[0] : PETSC_ERR_LIB, PETSC_ERROR_INITIAL, "meshing %s: %s", file,
      term->h.len >= sizeof pre ? term->p + sizeof pre : "?");
  }
  case REC_SETUP:
    return FcInputError(file, NULL,
      "cannot mesh the .geo script in a sandbox on this machine (%s): load a .msh file instead, or pass -fc_mesh_geo_unsandboxed to run the script without one (it may then run commands and write files; doc/mesh.md, \"The sandbox\")",
      term->p);
  case REC_SYSCALL: {
    int64_t nr = -1;
    char    what[160];
    if (term->h.len == sizeof nr) memcpy(&nr, term->p, sizeof nr);
    SyscallWhat(nr, what, sizeof what);
    return FcInputError(file, NULL, "the script tried to %s; the mesh sandbox stopped it (doc/mesh.md, \"The sandbox\")", what);
  }
  case REC_EXIT: return FcInputError(file, NULL, "the script ended Gmsh (Exit) before the mesh was made");
  default: return 0;
  }
}

/* Fork the meshing child (ChildMain: the sandbox, then work) with a pipe back; *pid, *fd: the
 * child and the pipe's reading end. */
static PetscErrorCode StartChild(const char *root, PetscErrorCode (*work)(void *, FcMeshFault *), void *ctx, pid_t *pid, int *fd)
{
  int        p[2];
  ChildSetup s;

  PetscFunctionBegin;
  s.root     = root;
  s.parent   = getpid();
  s.as_limit = AddressSpaceLimit();
  PetscCheck(!pipe2(p, O_CLOEXEC), PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot create a pipe for the meshing process: %s", strerror(errno));
  s.fd = p[1];
  fflush(stdout);
  fflush(stderr);
  *pid = fork();
  if (*pid == 0) {
    close(p[0]);
    ChildMain(&s, work, ctx);
  }
  close(p[1]);
  if (*pid < 0) {
    close(p[0]);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot start the meshing process: %s", strerror(errno));
  }
  *fd = p[0];
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshGeoRun_Private(const char *file, const char *root, PetscErrorCode (*work)(void *, FcMeshFault *), void *ctx, FcMeshFault *fault)
{
  int            status = 0;
  pid_t          pid;
  Reader         rd;
  Rec           *head = NULL, *term = NULL;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  *fault = FC_MESH_FAULT_OTHER;
  if (FcMeshGeo.unsandboxed) {
    PetscCall(work(ctx, fault));
    PetscFunctionReturn(0);
  }
  memset(&rd, 0, sizeof rd);
  PetscCall(StartChild(root, work, ctx, &pid, &rd.fd));
  rd.pid  = pid;
  rd.file = file;
  /* the parent's model is touched only once the child has made its mesh */
  rc = ReadRecords(&rd, Now() + FcMeshGeo.timeout, file, &head, &term);
  close(rd.fd);
  Reap(pid, PETSC_TRUE, &status);
  if (!rc && rd.interrupted)
    rc = PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_SIG, PETSC_ERROR_INITIAL, "interrupted while Gmsh meshed %s", file);
  else if (!rc && rd.timed_out)
    rc = FcInputError(file, NULL,
      "meshing the script took longer than the limit of %g s and was stopped (a loop that never ends? -fc_mesh_timeout SECONDS raises the limit; doc/mesh.md, \"The sandbox\")",
      FcMeshGeo.timeout);
  else if (!rc && !term) rc = NoFinalRecordError(file, status);
  else if (!rc) rc = FinalRecordError(file, term, fault);
  /* REC_END: rebuild the mesh in this session, in the child's order */
  for (Rec *r = head; !rc && term && term->h.kind == REC_END && r != term; r = r->next) {
    if (r->h.kind == REC_NODES) rc = RebuildNodes(file, r);
    else if (r->h.kind == REC_ELEMS) rc = RebuildElements(file, r);
    else if (r->h.kind == REC_GROUP) rc = RebuildGroup(file, r);
    free(r->p);
    r->p = NULL;
  }
  RecFree(head);
  PetscCall(rc);
  PetscFunctionReturn(0);
}
