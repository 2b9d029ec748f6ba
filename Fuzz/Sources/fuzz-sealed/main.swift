import Foundation
import FuzzDriver
import NoteSync

// A sealed file of an encrypted container, as any device reads it: the envelope is opened with
// the container's key (here a fixed one) for its path; whatever the bytes, it opens or is
// refused, and sizes come out of the size of any file.
fuzz { data in
    let sealing = FileSealing(
        key: ContainerKey(bytes: Data(repeating: 7, count: ContainerKey.byteCount))!,
        container: UUID(uuidString: "3f2b8c1e-7a4d-4e9b-9c2a-5d6e7f801234")!)
    _ = try? sealing.open(data, path: "logs/6b1f0c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e/000000000001.log")
    if let plain = FileSealing.plainSize(ofSealed: Int64(data.count)) {
        precondition(FileSealing.sealedSize(ofPlain: plain) == Int64(data.count), "sizes disagree")
    }
}
