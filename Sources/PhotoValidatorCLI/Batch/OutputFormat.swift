import ArgumentParser

/// How `validate` prints one record per photo.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Aligned columns for people.
    case table
    /// One JSON object per line: `path` plus the ValidatePhotoOutput fields and `details`.
    case jsonl
    /// Comma-separated values with a header row; `details` flattened into columns.
    case csv
}
