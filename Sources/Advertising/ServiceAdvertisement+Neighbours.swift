import CAvahi
import Glibc

/// Browsing for the other rigs: while the client runs, a service browser
/// for `neighbourType` (`_oscjson._tcp`) resolves each instance (IPv4)
/// and keeps those whose TXT record holds `Self.ours` under another name
/// than this rig's; `neighboursChanged` is told the sorted list whenever it
/// changes. On Avahi's thread, like the rest of the conversation.
extension ServiceAdvertisement {
    /// The TXT entry that marks a Crosspoint rig's services.
    public static let ours = "app=crosspoint"

    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ context: UnsafeMutableRawPointer?) -> ServiceAdvertisement? {
        context.map { Unmanaged<ServiceAdvertisement>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Starts browsing, once per running client.
    func browse(_ client: OpaquePointer) {
        guard let type = neighbourType, browser == nil else { return }
        browser = avahi_service_browser_new(
            client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_INET), type, nil, AvahiLookupFlags(0),
            { _, interface, proto, event, name, type, domain, _, context in
                ServiceAdvertisement.from(context)?.browsed(interface, proto, event, name, type, domain)
            }, context)
        if browser == nil {
            logger.warning("DNS-SD: cannot browse for other rigs: \(String(cString: avahi_strerror(avahi_client_errno(client))))")
        }
    }

    /// Stops browsing; the rigs found are forgotten (the client is going).
    func forgetNeighbours() {
        if let browser { avahi_service_browser_free(browser) }
        browser = nil
        guard !neighbours.isEmpty else { return }
        neighbours = [:]
        neighboursChanged([])
    }

    private func browsed(_ interface: AvahiIfIndex, _ proto: AvahiProtocol, _ event: AvahiBrowserEvent,
                         _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?) {
        guard !stopping, let name, let type else { return }
        let instance = String(cString: name)
        switch event {
        case AVAHI_BROWSER_NEW:
            guard instance != self.name, let client else { return }
            // Freed in its own callback, once it has answered.
            let made = avahi_service_resolver_new(
                client, interface, proto, name, type, domain, AvahiProtocol(AVAHI_PROTO_INET), AvahiLookupFlags(0),
                { resolver, _, _, event, name, _, _, _, address, port, txt, _, context in
                    ServiceAdvertisement.from(context)?.resolved(event, name, address, port, txt)
                    avahi_service_resolver_free(resolver)
                }, context)
            if made == nil { logger.info("DNS-SD: cannot resolve '\(instance)'") }
        case AVAHI_BROWSER_REMOVE:
            if neighbours.removeValue(forKey: instance) != nil { neighboursChanged(neighbours.values.sorted()) }
        default:
            break
        }
    }

    private func resolved(_ event: AvahiResolverEvent, _ name: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?,
                          _ port: UInt16, _ txt: UnsafeMutablePointer<AvahiStringList>?) {
        guard !stopping, event == AVAHI_RESOLVER_FOUND, let name, let address else { return }
        let instance = String(cString: name)
        guard instance != self.name, Self.holds(txt, Self.ours) else { return }
        var text = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        avahi_address_snprint(&text, text.count, address)
        let found = Neighbour(name: instance, address: String(cString: text), port: Int(port))
        guard neighbours[instance] != found else { return }
        neighbours[instance] = found
        neighboursChanged(neighbours.values.sorted())
    }

    /// Whether a TXT record holds `entry` (`key=value`) exactly.
    static func holds(_ txt: UnsafeMutablePointer<AvahiStringList>?, _ entry: String) -> Bool {
        var item = txt
        let wanted = Array(entry.utf8)
        while let current = item {
            let size = current.pointee.size
            let bytes = withUnsafePointer(to: &current.pointee.text) {
                UnsafeRawPointer($0).withMemoryRebound(to: UInt8.self, capacity: size) { Array(UnsafeBufferPointer(start: $0, count: size)) }
            }
            if bytes == wanted { return true }
            item = current.pointee.next
        }
        return false
    }
}
