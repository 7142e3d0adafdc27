import Testing

extension Trait where Self == ConditionTrait {
    /// Marks a suite that needs more than this process and `testdata/`: the built binary, child
    /// processes (a daemon, decode workers, Temporal), live loopback servers, `.venv`'s peers or
    /// `../shared`. A hermetic run (`PHOTO_VALIDATOR_HERMETIC=1 swift test`) skips it; `scripts/test`
    /// and CI always run it.
    package static var integration: Self {
        .enabled(if: !Fixtures.hermeticOnly, "an integration suite: PHOTO_VALIDATOR_HERMETIC=1 runs only the hermetic ones")
    }
}
