/// How many TCP connections each host holds, and all together, against the
/// limits (`OSCServer.hostConnectionLimit`, `OSCServer.connectionLimit`):
/// one host's connections cannot lock the others out. A refusal is worth a
/// log line once while its host (or the server) stays at the limit, not at
/// every attempt of a flood. Kept by the TCP loop's thread.
struct TCPConnectionCount {
    let perHost: Int
    let total: Int
    private var byHost: [[UInt8]: Int] = [:]
    private var all = 0
    private var hostsTold: Set<[UInt8]> = []
    private var toldAll = false

    enum Admission: Equatable {
        case admitted
        /// Refused; with a reason to log for the first refusal at this limit.
        case refused(String?)
    }

    init(perHost: Int, total: Int) {
        self.perHost = perHost
        self.total = total
    }

    /// A connection from `host` would open: counted if it may.
    mutating func admit(_ host: [UInt8]) -> Admission {
        if byHost[host, default: 0] >= perHost {
            return .refused(hostsTold.insert(host).inserted ? "more than \(perHost) TCP connections from one host" : nil)
        }
        if all >= total {
            defer { toldAll = true }
            return .refused(toldAll ? nil : "more than \(total) TCP connections in all")
        }
        byHost[host, default: 0] += 1
        all += 1
        return .admitted
    }

    /// A connection `admit` counted has closed.
    mutating func release(_ host: [UInt8]) {
        all -= 1
        let left = byHost[host, default: 1] - 1
        byHost[host] = left > 0 ? left : nil
        hostsTold.remove(host)
        toldAll = false
    }
}
