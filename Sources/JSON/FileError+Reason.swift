import FoundationEssentials
import Glibc

extension FileError {
    /// Why a file operation failed, for people: the system's words for the
    /// errno behind FoundationEssentials' `CocoaError` ("No such file or
    /// directory"). `localizedDescription`, which said it before, is part of
    /// full Foundation.
    package static func reason(_ error: any Error) -> String {
        let posix = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError
        guard let posix else { return "\(error)" }
        return String(cString: strerror(posix.code.rawValue))
    }
}
