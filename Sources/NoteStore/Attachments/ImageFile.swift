import Foundation

/// Reads an image file offered as an attachment, and refuses it with a reason when it cannot be one.
enum ImageFile {
    static func read(_ file: URL, note: Item) throws -> (Data, ImageInfo) {
        do {
            return try read(file)
        } catch {
            throw StoreError.cannotAttach(file: file.relativePath, note: note.label, reason: error.reason)
        }
    }

    /// The bytes of the image `file` and what they hold; throws why it cannot be attached.
    static func read(_ file: URL) throws(AttachedFile.Refusal) -> (Data, ImageInfo) {
        func refuse(_ reason: String) -> AttachedFile.Refusal { AttachedFile.Refusal(reason: reason) }
        var info = stat()
        guard stat(file.path, &info) == 0 else { throw refuse(StoreFolder.errnoText()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw refuse("it is not a regular file") }
        guard Int64(info.st_size) <= Attachment.maximumBytes else {
            throw refuse("it has \(info.st_size) bytes, more than the limit of 50 MB")
        }
        let handle: FileHandle
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw refuse(StoreFolder.errnoText()) }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let data: Data
        do {
            data = try handle.read(upToCount: Int(Attachment.maximumBytes) + 1) ?? Data()
        } catch {
            throw refuse("it could not be read")
        }
        guard Int64(data.count) <= Attachment.maximumBytes else {
            throw refuse("it has more than the limit of 50 MB")
        }
        let image: ImageInfo
        switch Result(catching: { () throws(ImageProblem) -> ImageInfo in try ImageInspector.inspect(data) }) {
        case let .success(info): image = info
        case let .failure(problem): throw refuse(problem.description)
        }
        let pixels = image.width.multipliedReportingOverflow(by: image.height)
        guard !pixels.overflow, pixels.partialValue <= Attachment.maximumPixels else {
            throw refuse("the image is \(image.width) × \(image.height) pixels, more than the limit of 500 megapixels")
        }
        return (data, image)
    }
}
