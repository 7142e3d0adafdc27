import ArgumentParser
import DecodeWorker

/// `photo-validator decode-worker`, hidden: a sandboxed decode worker, started by the daemon or
/// `validate` with its socket on descriptor 3 (see `DecodeSandbox`). Not for people.
struct DecodeWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-worker",
        abstract: "Internal: serve decodes on descriptor 3 inside a sandbox.",
        shouldDisplay: false
    )

    /// `UID:GID` the worker becomes before its first thread when the daemon is root; read by
    /// CSandbox's constructor before `main`, declared here so the parser accepts it.
    @Option(name: .customLong("worker-user"), help: .hidden)
    var workerUser: String?

    func run() throws {
        DecodeWorkerHost.run()
    }
}
