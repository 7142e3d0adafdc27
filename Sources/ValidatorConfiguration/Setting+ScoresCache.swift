/// The settings only the batch commands read, each declared once: its catalog lists it and its
/// read names it.
extension Setting {
    /// The setting `scores_cache.key_file`.
    package static let scoresCacheKeyFile = Setting("scores_cache.key_file", .path,
        computed: "$XDG_STATE_HOME/photo-validator/scores-cache.key (~/.local/state/… without XDG_STATE_HOME), created 0600 if missing",
        "file of the 32-byte random key that signs each row of validate's and tune's --scores-cache (a row it does not verify is measured again); point an array job's shards at one shared file")
}
