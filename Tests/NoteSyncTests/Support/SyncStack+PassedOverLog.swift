import Foundation
import NoteSync
import Testing

extension SyncStack {
    /// Rewrites the `container` of a log of `device` (and its checksum); returns its sequence.
    func rewriteNewestLog(of device: UUID) throws -> Int64 {
        let container = try self.container()
        let sequence = try #require(try container.logSequences(of: device).sequences.last)
        let file = container.url.appendingPathComponent(CloudContainer.logPath(device: device, sequence: sequence))
        var log = try LogCodec.decode(Data(contentsOf: file))
        log.header.container = UUID()
        try LogCodec.encode(log).write(to: file)
        return sequence
    }
}
