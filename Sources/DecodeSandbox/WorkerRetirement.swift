/// The one field of a worker's `ValidateReply` the pool reads before the caller reads the rest:
/// whether the worker exits after it, so that the reply is not decoded whole twice.
struct WorkerRetirement: Decodable {
    /// `ValidateReply.retiring`.
    let retiring: Bool?
}
