import Foundation

/// Why an export or an import could not go on. Problems with single files of an import are
/// not errors: they are reported (``ImportReport/problems``) and the rest is imported.
public enum InterchangeError: Error, CustomStringConvertible, Equatable {
    /// The export's folder holds files already, and `--force` was not given.
    case notEmpty(path: String)
    /// A file or folder could not be read or written.
    case io(path: String, reason: String)
    /// A symbolic link stands where an export writes: it is not written through.
    case symbolicLink(path: String)
    /// The JSON document is not an export of this tool.
    case notAnExport(path: String, reason: String)

    public var description: String {
        switch self {
        case let .notEmpty(path):
            return "cannot export to \(path): it is not empty (give --force to write over the files it has)"
        case let .symbolicLink(path): return "cannot export to '\(path)': it is a symbolic link"
        case let .io(path, reason): return "cannot use \(path): \(reason)"
        case let .notAnExport(path, reason): return "cannot import \(path): \(reason)"
        }
    }

    static func io(_ url: URL, _ error: any Error) -> InterchangeError {
        let reason: String
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain
        {
            reason = String(cString: strerror(Int32(posix.code)))
        } else if (error as NSError).domain == NSCocoaErrorDomain {
            reason = Self.cocoaReason((error as NSError).code)
        } else {
            reason = "\(error)"
        }
        return .io(path: url.path, reason: reason)
    }

    private static func cocoaReason(_ code: Int) -> String {
        switch code {
        case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file or directory"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on device"
        case NSFileReadInapplicableStringEncodingError: return "it is not UTF-8"
        default: return "error \(code)"
        }
    }
}
