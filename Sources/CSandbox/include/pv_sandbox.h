#ifndef PHOTO_VALIDATOR_PV_SANDBOX_H
#define PHOTO_VALIDATOR_PV_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Process isolation for photo-validator's decode workers: spawning a worker with an empty
 * environment and one socket, and, inside the worker, resource limits and a seccomp allow-list.
 * Imported only by DecodeSandbox. */

/* The descriptor a worker finds its channel on. */
#define PV_SANDBOX_CHANNEL_FD 3

/* The descriptor a worker finds its shared photo memory on until it enters the sandbox. */
#define PV_SANDBOX_SHARED_FD 4

/* Starts `executable` with `argv` (NULL-terminated), an empty environment, /dev/null on 0, 1 and 2,
 * `channel` as descriptor 3, `shared` (a memfd, or -1) as descriptor 4 and no other descriptor.
 * Returns 0 and sets `pid`, or an errno value. */
int pv_sandbox_spawn(const char *executable, char *const argv[], int channel, int shared, pid_t *pid);

/* A sealed-size anonymous shared memory file of `size` bytes (sparse) mapped read-write at
 * `*address`, then sealed against any later write or writable mapping (F_SEAL_FUTURE_WRITE: the
 * mapping made here stays writable); returns its descriptor (close-on-exec), or -errno. */
int pv_sandbox_shared_create(size_t size, void **address);

/* Maps `size` bytes of the shared memory on `fd` read-only; returns the address or NULL. */
const void *pv_sandbox_shared_map(int fd, size_t size);

/* Unmaps `size` bytes at `address`. */
void pv_sandbox_shared_unmap(void *address, size_t size);

/* A connected AF_UNIX stream socket pair, both ends close-on-exec. Returns 0 or an errno value. */
int pv_sandbox_socketpair(int fds[2]);

/* Polls `fd` for input for at most `timeout_ms` (-1: forever). Returns 1 when readable (or hung
 * up), 0 on timeout, or -errno. Retries on EINTR with the time left. */
int pv_sandbox_poll_readable(int fd, int timeout_ms);

/* Writes `first` then `second` (either may be empty) to the socket `fd` in full, without SIGPIPE.
 * Returns 0 or an errno value (EPIPE when the peer is gone). */
int pv_sandbox_send(int fd, const void *first, size_t first_length, const void *second, size_t second_length);

/* Reads exactly `length` bytes from `fd` within `timeout_ms` (-1: no limit). Returns 0, ETIMEDOUT,
 * EPIPE at end of stream, or another errno value; `received` says how many bytes arrived. */
int pv_sandbox_receive(int fd, void *buffer, size_t length, int timeout_ms, size_t *received);

/* Sends SIGKILL to `pid` (a worker this process spawned). */
void pv_sandbox_kill(pid_t pid);

/* Waits for `pid` to end; returns its raw wait status, or -1. `block` 0 returns -2 when it is
 * still running. */
int pv_sandbox_wait(pid_t pid, int block);

/* Decoding a wait status: the signal that ended the process, or 0 when it exited. */
int pv_sandbox_term_signal(int status);
/* The exit code of a process that exited, or -1. */
int pv_sandbox_exit_code(int status);

/* The process's address space (VmSize) in KiB, from /proc/self/status; -1 when unknown. Call
 * before entering the sandbox: /proc cannot be opened afterwards. */
long pv_sandbox_vm_size_kib(void);

/* Asks the kernel to SIGKILL this process when its parent dies (a spinning worker would not see
 * its socket close). */
void pv_sandbox_die_with_parent(void);

/* Keeps glibc's malloc to one arena, so the address space a worker needs is predictable, and keeps
 * freed photo-sized blocks (up to 32 MiB) for the next photo instead of returning and faulting
 * them in again each time. */
void pv_sandbox_limit_arenas(void);

/* What `pv_sandbox_enter` managed to apply. */
typedef struct {
    /* 1 when the seccomp filter is loaded. */
    int seccomp;
    /* The errno of the step that failed (seccomp or a limit), 0 when none. */
    int error;
    /* The step that failed, or "" (a static string). */
    const char *failed_step;
    /* The real user and group the worker runs as afterwards. */
    uid_t uid;
    gid_t gid;
} pv_sandbox_report;

/* Closes every descriptor but the channel, sets RLIMIT_CORE 0, RLIMIT_AS `address_space_bytes`
 * and RLIMIT_CPU the CPU used so far plus `cpu_seconds` (each soft and hard alike), drops every
 * capability (bounding and ambient sets too) and, when running as root, becomes `uid`:`gid` with
 * no supplementary group, installs the crash reporter (which writes one byte to the channel when
 * the process dies of a fatal signal close to its address-space limit), PR_SET_NO_NEW_PRIVS,
 * PR_SET_DUMPABLE 0, and then the seccomp allow-list. Steps that fail are reported; the process
 * goes on. */
pv_sandbox_report pv_sandbox_enter(uint64_t address_space_bytes, uint64_t cpu_seconds, uid_t uid, gid_t gid);

/* CPU seconds left before RLIMIT_CPU ends the process (LONG_MAX without a limit, -1 unknown). */
long pv_sandbox_cpu_seconds_left(void);

/* Who the calling process is and what it may do, for tests of the sandbox. */
typedef struct {
    uid_t uid;
    uid_t euid;
    gid_t gid;
    uint64_t effective_capabilities;
    uint64_t permitted_capabilities;
    /* RLIMIT_CPU soft and hard, RLIMIT_AS hard: -1 unlimited, -2 unknown. */
    int64_t cpu_soft;
    int64_t cpu_hard;
    int64_t address_space_hard;
    /* The errno of an attempt to lift RLIMIT_CPU (0: it was lifted). */
    int raise_cpu_errno;
} pv_sandbox_identity;

/* The calling process's identity and limits; tries to lift RLIMIT_CPU (see raise_cpu_errno). */
pv_sandbox_identity pv_sandbox_identity_now(void);

/* The byte the crash reporter writes when a fatal signal arrives near the address-space limit. */
#define PV_SANDBOX_OOM_BYTE 0x4d

/* Test probes, run inside a sandboxed worker: each returns 0 when the action succeeded, else the
 * errno it failed with. */
int pv_sandbox_probe_open(const char *path);
int pv_sandbox_probe_socket(void);
int pv_sandbox_probe_stat(const char *path);
int pv_sandbox_probe_access(const char *path);
/* Tries to write to, and to map writable, the shared memory on `fd`: 0 when either worked. */
int pv_sandbox_probe_shared_write(int fd);
/* Crashes the process with SIGSEGV. */
void pv_sandbox_crash(void);
/* Spins on the CPU forever. */
void pv_sandbox_spin(void);
/* Touches memory in 16 MiB blocks until malloc fails, then crashes on the NULL it returned
 * (as a decoder that does not check would); returns only when it never fails. */
void pv_sandbox_exhaust_memory(void);

#endif
