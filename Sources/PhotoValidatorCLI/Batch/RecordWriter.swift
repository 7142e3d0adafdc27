import Foundation

/// Prints `validate` records to standard output in the chosen format.
struct RecordWriter {
    /// The format records are printed in.
    let format: OutputFormat
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(format: OutputFormat) {
        self.format = format
    }

    /// Prints the header row, if the format has one.
    func begin() {
        switch format {
        case .table: StandardStreams.output(ValidationRecord.tableHeader)
        case .csv: StandardStreams.output(CSVLine.encode(ValidationRecord.csvHeader))
        case .jsonl: break
        }
    }

    /// Prints one record.
    func write(_ record: ValidationRecord) {
        switch format {
        case .table:
            StandardStreams.output(record.tableLine)
        case .csv:
            StandardStreams.output(CSVLine.encode(record.csvFields))
        case .jsonl:
            // Encoding plain value types cannot fail.
            let data = (try? encoder.encode(record)) ?? Data("{}".utf8)
            StandardStreams.output(String(decoding: data, as: UTF8.self))
        }
    }
}
