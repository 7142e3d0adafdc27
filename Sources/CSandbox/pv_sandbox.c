#define _GNU_SOURCE
#include "pv_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/memfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int pv_sandbox_socketpair(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0 ? 0 : errno;
}

int pv_sandbox_shared_create(size_t size, void **address) {
    int fd = (int)syscall(SYS_memfd_create, "pv-photo", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -errno;
    if (ftruncate(fd, (off_t)size) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    void *mapped = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) {
        int error = errno;
        close(fd);
        return -error;
    }
    // The daemon's mapping, made before the seal, stays writable; nobody can write through the
    // descriptor or map it writable from now on (the worker it is handed to included).
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) != 0) {
        int error = errno;
        munmap(mapped, size);
        close(fd);
        return -error;
    }
    *address = mapped;
    return fd;
}

const void *pv_sandbox_shared_map(int fd, size_t size) {
    void *mapped = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    return mapped == MAP_FAILED ? NULL : mapped;
}

void pv_sandbox_shared_unmap(void *address, size_t size) {
    if (address) munmap(address, size);
}

int pv_sandbox_spawn(const char *executable, char *const argv[], int channel, int shared, pid_t *pid) {
    posix_spawn_file_actions_t actions;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    // dup2 onto the same number would keep close-on-exec: move the channel out of the way first.
    int source = channel;
    if (channel == PV_SANDBOX_CHANNEL_FD) {
        source = fcntl(channel, F_DUPFD_CLOEXEC, PV_SANDBOX_CHANNEL_FD + 1);
        if (source < 0) { posix_spawn_file_actions_destroy(&actions); return errno; }
    }
    int shared_source = shared;
    if (shared == PV_SANDBOX_CHANNEL_FD || shared == PV_SANDBOX_SHARED_FD) {
        shared_source = fcntl(shared, F_DUPFD_CLOEXEC, PV_SANDBOX_SHARED_FD + 1);
        if (shared_source < 0) {
            int error = errno;
            if (source != channel) close(source);
            posix_spawn_file_actions_destroy(&actions);
            return error;
        }
    }
    status = posix_spawn_file_actions_adddup2(&actions, source, PV_SANDBOX_CHANNEL_FD);
    if (status == 0 && shared >= 0) status = posix_spawn_file_actions_adddup2(&actions, shared_source, PV_SANDBOX_SHARED_FD);
    for (int fd = 0; status == 0 && fd <= 2; fd++) {
        status = posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
    }
    // Descriptors the daemon opened without close-on-exec do not reach the worker either.
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, (shared >= 0 ? PV_SANDBOX_SHARED_FD : PV_SANDBOX_CHANNEL_FD) + 1);
    posix_spawnattr_t attributes;
    if (status == 0) status = posix_spawnattr_init(&attributes);
    if (status == 0) {
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setsigdefault(&attributes, &all);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSID);
        char *empty[] = { NULL };
        status = posix_spawn(pid, executable, &actions, &attributes, argv, empty);
        posix_spawnattr_destroy(&attributes);
    }
    posix_spawn_file_actions_destroy(&actions);
    if (source != channel) close(source);
    if (shared_source != shared) close(shared_source);
    return status;
}

int pv_sandbox_poll_readable(int fd, int timeout_ms) {
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int left = timeout_ms;
    for (;;) {
        struct pollfd entry = { .fd = fd, .events = POLLIN };
        int ready = poll(&entry, 1, left);
        if (ready > 0) return 1;
        if (ready == 0) return 0;
        if (errno != EINTR) return -errno;
        if (timeout_ms >= 0) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            long elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
            left = timeout_ms - (int)elapsed;
            if (left <= 0) return 0;
        }
    }
}

int pv_sandbox_send(int fd, const void *first, size_t first_length, const void *second, size_t second_length) {
    struct iovec parts[2] = {
        { .iov_base = (void *)first, .iov_len = first_length },
        { .iov_base = (void *)second, .iov_len = second_length },
    };
    struct iovec *next = parts;
    int count = 2;
    while (count > 0) {
        if (next->iov_len == 0) { next++; count--; continue; }
        struct msghdr message = { .msg_iov = next, .msg_iovlen = (size_t)count };
        ssize_t sent = sendmsg(fd, &message, MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        while (count > 0 && (size_t)sent >= next->iov_len) { sent -= (ssize_t)next->iov_len; next->iov_len = 0; next++; count--; }
        if (count > 0) { next->iov_base = (char *)next->iov_base + sent; next->iov_len -= (size_t)sent; }
    }
    return 0;
}

static long elapsed_ms(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

int pv_sandbox_receive(int fd, void *buffer, size_t length, int timeout_ms, size_t *received) {
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    size_t done = 0;
    *received = 0;
    while (done < length) {
        if (timeout_ms >= 0) {
            long left = timeout_ms - elapsed_ms(&start);
            if (left <= 0) return ETIMEDOUT;
            int ready = pv_sandbox_poll_readable(fd, (int)left);
            if (ready == 0) return ETIMEDOUT;
            if (ready < 0) return -ready;
        }
        ssize_t got = recv(fd, (char *)buffer + done, length - done, 0);
        if (got == 0) return EPIPE;
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return errno == ECONNRESET ? EPIPE : errno;
        }
        done += (size_t)got;
        *received = done;
    }
    return 0;
}

void pv_sandbox_kill(pid_t pid) {
    if (pid > 0) kill(pid, SIGKILL);
}

int pv_sandbox_wait(pid_t pid, int block) {
    int status = 0;
    for (;;) {
        pid_t done = waitpid(pid, &status, block ? 0 : WNOHANG);
        if (done == pid) return status;
        if (done == 0) return -2;
        if (errno != EINTR) return -1;
    }
}

int pv_sandbox_term_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }
int pv_sandbox_exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

long pv_sandbox_vm_size_kib(void) {
    FILE *file = fopen("/proc/self/status", "re");
    if (!file) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, "VmSize:", 7) == 0) { kib = strtol(line + 7, NULL, 10); break; }
    }
    fclose(file);
    return kib;
}

void pv_sandbox_die_with_parent(void) { prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); }

void pv_sandbox_limit_arenas(void) {
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

// MARK: - The crash reporter

static char crash_stack[64 << 10];

static void crash_reporter(int signal_number) {
    int saved = errno;
    // Close to RLIMIT_AS, even a small reservation fails: then the fault was most likely an
    // allocation that failed and was not checked (or was, by a runtime that traps).
    void *probe = mmap(NULL, 32 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    int near_limit = probe == MAP_FAILED || saved == ENOMEM;
    if (probe != MAP_FAILED) munmap(probe, 32 << 20);
    if (near_limit) {
        unsigned char byte = PV_SANDBOX_OOM_BYTE;
        ssize_t ignored = write(PV_SANDBOX_CHANNEL_FD, &byte, 1);
        (void)ignored;
    }
    // SA_RESETHAND restored the default action; the signal is blocked until the handler returns.
    raise(signal_number);
}

static void install_crash_reporter(void) {
    stack_t stack = { .ss_sp = crash_stack, .ss_size = sizeof crash_stack, .ss_flags = 0 };
    sigaltstack(&stack, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = crash_reporter;
    action.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) sigaction(fatal[i], &action, NULL);
}

// MARK: - Entering the sandbox

#ifndef CLONE_THREAD
#define CLONE_THREAD 0x00010000
#endif

static int load_filter(void) {
    // Anything not listed fails with EPERM instead of killing the worker, so a library that opens a
    // file lazily gets an error it can report.
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (!filter) return ENOMEM;
    const int allowed[] = {
        SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(pread64),
        SCMP_SYS(recvfrom), SCMP_SYS(sendto), SCMP_SYS(recvmsg), SCMP_SYS(sendmsg), SCMP_SYS(close),
        SCMP_SYS(fstat), SCMP_SYS(lseek), SCMP_SYS(fcntl), SCMP_SYS(dup),
        SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(pipe2), SCMP_SYS(eventfd2),
        SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect), SCMP_SYS(madvise), SCMP_SYS(brk),
        SCMP_SYS(futex), SCMP_SYS(set_robust_list), SCMP_SYS(get_robust_list), SCMP_SYS(rseq), SCMP_SYS(set_tid_address),
        SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn),
        SCMP_SYS(sigaltstack), SCMP_SYS(sched_yield), SCMP_SYS(sched_getaffinity), SCMP_SYS(getpid), SCMP_SYS(gettid),
        SCMP_SYS(getuid), SCMP_SYS(geteuid), SCMP_SYS(getgid), SCMP_SYS(getegid), SCMP_SYS(capget), SCMP_SYS(clock_gettime),
        SCMP_SYS(clock_getres), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep), SCMP_SYS(gettimeofday), SCMP_SYS(getrusage),
        SCMP_SYS(getrandom), SCMP_SYS(membarrier), SCMP_SYS(uname), SCMP_SYS(sysinfo),
    };
    // Every thread: the worker host may run on any thread, and libvips' threads exist by now.
    int status = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
    for (size_t i = 0; status == 0 && i < sizeof allowed / sizeof allowed[0]; i++) {
        status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, allowed[i], 0);
    }
    // Threads only: clone without CLONE_THREAD would make a process. clone3's flags live in
    // memory seccomp cannot read, so it fails with ENOSYS and glibc falls back to clone.
    if (status == 0) status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
    if (status == 0) status = seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    // Signals to itself only (abort, raise); reading its own limits, never setting them (no
    // setrlimit either). Path-based stat and access calls are not listed: fstat on its own
    // descriptors is, so a worker cannot learn whether a file exists.
    if (status == 0) status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid()));
    if (status == 0) status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), 2, SCMP_A0(SCMP_CMP_EQ, 0), SCMP_A2(SCMP_CMP_EQ, 0));
    // Thread names (glib, Foundation).
    if (status == 0) status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME));
    if (status == 0) status = seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_EQ, PR_GET_NAME));
    if (status == 0) status = seccomp_load(filter);
    seccomp_release(filter);
    return status < 0 ? -status : status;
}

/* Drops every capability from the bounding and ambient sets (while it still may), then, when
 * running as root, takes `uid`/`gid` with no supplementary groups, and finally empties the
 * permitted, effective and inheritable sets. */
static void drop_identity(uid_t uid, gid_t gid, pv_sandbox_report *report) {
#define PV_FAIL_ID(step) do { if (report->error == 0) { report->error = errno; report->failed_step = step; } } while (0)
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) PV_FAIL_ID("PR_CAP_AMBIENT_CLEAR_ALL");
    for (unsigned long cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0) break;
        // Without CAP_SETPCAP the set cannot shrink: nothing to lose then, the process has no capability.
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EPERM) { PV_FAIL_ID("PR_CAPBSET_DROP"); break; }
    }
    if (geteuid() == 0 || getuid() == 0) {
        if (setgroups(0, NULL) != 0) PV_FAIL_ID("setgroups");
        if (setresgid(gid, gid, gid) != 0) PV_FAIL_ID("setresgid");
        if (setresuid(uid, uid, uid) != 0) PV_FAIL_ID("setresuid");
    }
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &header, data) != 0) PV_FAIL_ID("capset");
    report->uid = getuid();
    report->gid = getgid();
#undef PV_FAIL_ID
}

// MARK: - Identity, before the worker has a second thread

/* What the constructor below did, reported by pv_sandbox_enter. */
static int early_identity_error = 0;
static const char *early_identity_step = "";
static int early_identity_done = 0;

/* Runs before main in every process that links this file; acts only in a decode worker
 * (`photo-validator decode-worker --worker-user UID:GID`), while it has one thread: credentials
 * and capability sets are per thread, and glibc changes a multi-threaded process's ids by
 * signalling every thread, which interrupts their blocking calls. */
__attribute__((constructor)) static void pv_sandbox_early_identity(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 4 || strcmp(argv[1], "decode-worker") != 0 || strcmp(argv[2], "--worker-user") != 0) return;
    unsigned long uid = 0, gid = 0;
    char *end = NULL;
    uid = strtoul(argv[3], &end, 10);
    if (!end || *end != ':') return;
    gid = strtoul(end + 1, &end, 10);
    if (!end || *end != 0 || uid == 0 || gid == 0) return;
    pv_sandbox_report report = { .seccomp = 0, .error = 0, .failed_step = "" };
    drop_identity((uid_t)uid, (gid_t)gid, &report);
    pv_sandbox_die_with_parent();
    early_identity_error = report.error;
    early_identity_step = report.failed_step;
    early_identity_done = 1;
}

pv_sandbox_report pv_sandbox_enter(uint64_t address_space_bytes, uint64_t cpu_seconds, uid_t uid, gid_t gid) {
    pv_sandbox_report report = { .seccomp = 0, .error = 0, .failed_step = "", .uid = getuid(), .gid = getgid() };
#define PV_FAIL(step) do { if (report.error == 0) { report.error = errno; report.failed_step = step; } } while (0)
    // The identity was dropped before the first thread (the constructor above); a worker started
    // without --worker-user must not run as root either.
    if (early_identity_done) {
        if (early_identity_error != 0) { report.error = early_identity_error; report.failed_step = early_identity_step; }
    } else if (geteuid() == 0 || getuid() == 0) {
        errno = EPERM;
        PV_FAIL("worker started as root without --worker-user");
    } else {
        // Not root: only capabilities (say ambient ones from systemd) to drop, in this thread;
        // threads made from now on inherit the empty sets.
        drop_identity(uid, gid, &report);
    }
    report.uid = getuid();
    report.gid = getgid();
    if (syscall(SYS_close_range, 0u, (unsigned)PV_SANDBOX_CHANNEL_FD - 1, 0u) != 0) PV_FAIL("close_range");
    if (syscall(SYS_close_range, (unsigned)PV_SANDBOX_CHANNEL_FD + 1, ~0u, 0u) != 0) PV_FAIL("close_range");
    struct rlimit none = { 0, 0 };
    if (setrlimit(RLIMIT_CORE, &none) != 0) PV_FAIL("RLIMIT_CORE");
    struct rlimit space = { address_space_bytes, address_space_bytes };
    if (setrlimit(RLIMIT_AS, &space) != 0) PV_FAIL("RLIMIT_AS");
    // The worker's whole life of CPU, soft and hard alike: once spent, SIGXCPU ends it, and
    // nothing in it can raise the limit again. The daemon retires a worker before it gets close.
    struct rusage usage;
    rlim_t used = getrusage(RUSAGE_SELF, &usage) == 0 ? (rlim_t)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1) : 0;
    struct rlimit cpu = { used + cpu_seconds, used + cpu_seconds };
    if (setrlimit(RLIMIT_CPU, &cpu) != 0) PV_FAIL("RLIMIT_CPU");

    install_crash_reporter();
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) PV_FAIL("PR_SET_NO_NEW_PRIVS");
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) PV_FAIL("PR_SET_DUMPABLE");
    int filter = load_filter();
    if (filter == 0) {
        report.seccomp = 1;
    } else if (report.error == 0) {
        report.error = filter;
        report.failed_step = "seccomp";
    }
#undef PV_FAIL
    return report;
}

long pv_sandbox_cpu_seconds_left(void) {
    struct rusage usage;
    struct rlimit current;
    if (getrusage(RUSAGE_SELF, &usage) != 0 || getrlimit(RLIMIT_CPU, &current) != 0) return -1;
    if (current.rlim_cur == RLIM_INFINITY) return LONG_MAX;
    long used = (long)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1);
    return (long)current.rlim_cur - used;
}

pv_sandbox_identity pv_sandbox_identity_now(void) {
    pv_sandbox_identity identity = { .uid = getuid(), .euid = geteuid(), .gid = getgid() };
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &header, data) == 0) {
        identity.effective_capabilities = (uint64_t)data[0].effective | (uint64_t)data[1].effective << 32;
        identity.permitted_capabilities = (uint64_t)data[0].permitted | (uint64_t)data[1].permitted << 32;
    } else {
        identity.effective_capabilities = identity.permitted_capabilities = ~0ull;
    }
    struct rlimit limit;
    identity.cpu_soft = getrlimit(RLIMIT_CPU, &limit) == 0 ? (int64_t)(limit.rlim_cur == RLIM_INFINITY ? -1 : (int64_t)limit.rlim_cur) : -2;
    identity.cpu_hard = getrlimit(RLIMIT_CPU, &limit) == 0 ? (int64_t)(limit.rlim_max == RLIM_INFINITY ? -1 : (int64_t)limit.rlim_max) : -2;
    identity.address_space_hard = getrlimit(RLIMIT_AS, &limit) == 0 ? (int64_t)(limit.rlim_max == RLIM_INFINITY ? -1 : (int64_t)limit.rlim_max) : -2;
    struct rlimit raised = { RLIM_INFINITY, RLIM_INFINITY };
    identity.raise_cpu_errno = setrlimit(RLIMIT_CPU, &raised) == 0 ? 0 : errno;
    return identity;
}

int pv_sandbox_probe_stat(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) return errno;
    return 0;
}

int pv_sandbox_probe_access(const char *path) {
    return access(path, F_OK) == 0 ? 0 : errno;
}

int pv_sandbox_probe_shared_write(int fd) {
    char byte = 0;
    if (pwrite(fd, &byte, 1, 0) == 1) return 0;
    if (errno != EPERM) return errno;
    void *mapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) return errno;
    munmap(mapped, 4096);
    return 0;
}

// MARK: - Test probes

int pv_sandbox_probe_open(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    close(fd);
    return 0;
}

int pv_sandbox_probe_socket(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    close(fd);
    return 0;
}

void pv_sandbox_crash(void) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
}

void pv_sandbox_spin(void) {
    volatile unsigned long counter = 0;
    for (;;) counter++;
}

void pv_sandbox_exhaust_memory(void) {
    for (;;) {
        volatile unsigned char *block = malloc(16 << 20);
        // Written without a check, as an unchecked decoder would: NULL faults here.
        for (size_t offset = 0; offset < (16 << 20); offset += 4096) block[offset] = 1;
    }
}
