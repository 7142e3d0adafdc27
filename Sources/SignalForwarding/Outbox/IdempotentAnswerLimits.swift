/// How many answers to keyed uploads the outbox keeps for their `Idempotency-Key`: per project and
/// in all, by count and bytes. Beyond them the oldest answers are forgotten (a repeat of such an
/// upload is validated again, as a new upload), so one client's keys cannot fill the volume that
/// every project's promises need.
package struct IdempotentAnswerLimits: Sendable, Equatable {
    /// Why answers were forgotten.
    package enum Eviction: String, Sendable, CaseIterable {
        /// The project had `answersPerProject` newer answers.
        case projectFull = "project_full"
        /// Every project's answers together were over `totalBytes` or `totalAnswers`.
        case budget
    }

    /// The most answers one project keeps.
    package var answersPerProject: Int
    /// The most answers kept in all.
    package var totalAnswers: Int
    /// The most bytes all kept answers may take.
    package var totalBytes: Int
    /// The largest answer kept; a larger one is refused, not truncated.
    package var answerBytes: Int

    /// Limits from their parts.
    package init(answersPerProject: Int, totalAnswers: Int, totalBytes: Int, answerBytes: Int = 64 << 10) {
        self.answersPerProject = max(1, answersPerProject)
        self.totalAnswers = max(1, totalAnswers)
        self.totalBytes = max(0, totalBytes)
        self.answerBytes = max(1, answerBytes)
    }

    /// 1,000 answers per project, 100,000 and 64 MiB in all.
    package static let `default` = IdempotentAnswerLimits(answersPerProject: 1_000, totalAnswers: 100_000, totalBytes: 64 << 20)
}
