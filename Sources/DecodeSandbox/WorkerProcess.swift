import CSandbox
import Foundation

/// What the worker host does to its own process (`DecodeWorkerHost`, the worker's side of the
/// wall): its descriptors, allocator and parent, entering the sandbox, what it has left, and the
/// test-only misbehaviours. The C of it (`CSandbox`) is imported by this module alone.
package enum WorkerProcess {
    /// The socket to the daemon (descriptor 3, set up by the spawn).
    package static var channel: FrameChannel { FrameChannel(descriptor: PV_SANDBOX_CHANNEL_FD) }

    /// One malloc arena, and large buffers kept rather than mapped afresh: before any thread
    /// starts, and again after the decoder's start-up changed the mmap threshold.
    package static func limitArenas() {
        pv_sandbox_limit_arenas()
    }

    /// The worker dies when the daemon does.
    package static func dieWithParent() {
        pv_sandbox_die_with_parent()
    }

    /// The shared photo memory (descriptor 4) mapped read-only, `bytes` long, or nil when it cannot be.
    package static func sharedPhotoMemory(bytes: Int) -> UnsafeRawBufferPointer? {
        pv_sandbox_shared_map(PV_SANDBOX_SHARED_FD, bytes).map { UnsafeRawBufferPointer(start: $0, count: bytes) }
    }

    /// The process's address space now, KiB.
    package static var addressSpaceKiB: Int { max(0, pv_sandbox_vm_size_kib()) }

    /// CPU seconds left before RLIMIT_CPU ends the process.
    package static var cpuSecondsLeft: Int { pv_sandbox_cpu_seconds_left() }

    /// Enters the sandbox (see `pv_sandbox_enter`: descriptors closed, limits, capabilities
    /// dropped, `user` when root, the crash reporter, seccomp) and reports what holds; steps that
    /// fail are reported and the process goes on.
    package static func enterSandbox(addressSpaceLimit: Int, baselineKiB: Int, cpuSeconds: Int, user: WorkerUser) -> WorkerReady {
        let report = pv_sandbox_enter(UInt64(addressSpaceLimit), UInt64(max(1, cpuSeconds)), user.uid, user.gid)
        let failedStep = String(cString: report.failed_step)
        return WorkerReady(
            seccomp: report.seccomp == 1,
            sandboxError: report.error == 0 ? nil : "\(failedStep): \(String(cString: strerror(report.error)))",
            baselineKiB: baselineKiB,
            addressSpaceLimit: addressSpaceLimit,
            uid: report.uid,
            gid: report.gid
        )
    }

    /// What the sandbox lets through, for tests (`SandboxedDecoding.probe`); `environmentNames`
    /// are the worker's own, which the host reads (library code never reads the process's environment).
    package static func probe(seccomp: Bool, environmentNames: [String]) -> ProbeReply {
        let identity = pv_sandbox_identity_now()
        return ProbeReply(
            openErrno: pv_sandbox_probe_open("/etc/passwd"),
            socketErrno: pv_sandbox_probe_socket(),
            environmentNames: environmentNames,
            seccomp: seccomp,
            statErrno: pv_sandbox_probe_stat("/etc/passwd"),
            accessErrno: pv_sandbox_probe_access("/etc/passwd"),
            uid: identity.uid,
            effectiveUID: identity.euid,
            gid: identity.gid,
            effectiveCapabilities: identity.effective_capabilities,
            permittedCapabilities: identity.permitted_capabilities,
            cpuSoftLimit: identity.cpu_soft,
            cpuHardLimit: identity.cpu_hard,
            addressSpaceHardLimit: identity.address_space_hard,
            raiseCPULimitErrno: identity.raise_cpu_errno
        )
    }

    /// Crashes the process (a test request).
    package static func crash() {
        pv_sandbox_crash()
    }

    /// Loops without end (a test request; the daemon kills the worker at its deadline).
    package static func spin() {
        pv_sandbox_spin()
    }

    /// Allocates until the address-space limit ends the process (a test request).
    package static func exhaustMemory() {
        pv_sandbox_exhaust_memory()
    }
}
