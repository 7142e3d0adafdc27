import Foundation

/// A report folder that cannot be used as it is, or a report file that could not be written:
/// what happened, in a sentence that says what to do.
struct ReportFolderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable class for scripts.
    enum Code: String, Sendable {
        /// The folder, its `thumbs/`, or a file the report owns is a symbolic link.
        case link = "report_folder_link"
        /// The folder or its `thumbs/` is a file (or a device, a pipe), not a folder.
        case notAFolder = "report_folder_not_a_folder"
        /// The folder cannot be created or written: permissions, a read-only file system.
        case notWritable = "report_folder_not_writable"
        /// A file the report would replace was not written by photo-validator.
        case foreignFile = "report_folder_foreign_file"
        /// Anything else the file system answered (a full disk, an I/O error).
        case unavailable = "report_folder_unavailable"
    }

    /// What went wrong.
    let code: Code
    /// The path it went wrong at: the folder, or a file or folder in it.
    let path: String
    /// The file system's own words, when it gave any.
    let detail: String?

    /// An error of `code` at `path`.
    init(_ code: Code, path: String, detail: String? = nil) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    /// The error the file system's `error` at `path` means for a report.
    init(_ error: POSIXError, path: String) {
        let detail = String(cString: strerror(error.code.rawValue))
        switch error.code {
        case .EACCES, .EPERM, .EROFS: self.init(.notWritable, path: path, detail: detail)
        case .ENOTDIR: self.init(.notAFolder, path: path, detail: detail)
        case .ELOOP: self.init(.link, path: path, detail: detail)
        default: self.init(.unavailable, path: path, detail: detail)
        }
    }

    /// `code: what happened; what to do`.
    var description: String {
        let because = detail.map { " (\($0))" } ?? ""
        return switch code {
        case .link:
            "\(code.rawValue): \(path) is a symbolic link, and a report writes and removes files only in a real folder of its own, "
                + "never where a link leads; give --report a folder that is not a link, or remove the link"
        case .notAFolder:
            "\(code.rawValue): \(path) is not a folder\(because); give --report a folder, or a path where one can be created"
        case .notWritable:
            "\(code.rawValue): cannot write the report at \(path)\(because); make the folder writable (chmod u+w) "
                + "or give --report a folder you can write to"
        case .foreignFile:
            "\(code.rawValue): \(path) was not written by photo-validator (the folder's \(ReportFolder.manifestName) does not list it), "
                + "and the report would replace it; move it away, or give --report a new or empty folder"
        case .unavailable:
            "\(code.rawValue): cannot write the report at \(path)\(because); free some space or fix the folder, then run again"
        }
    }
}
