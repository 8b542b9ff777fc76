import CAvahi

/// The conversation with the Avahi daemon. Everything here runs on Avahi's
/// thread (its callbacks hold the poll's lock), or before that thread
/// starts, or under the lock in `stop()`.
extension ServiceAdvertisement {
    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The advertisement a C callback's user data points to; it outlives
    /// every Avahi object, since `stop()` (also run by `deinit`) frees them.
    private static func from(_ context: UnsafeMutableRawPointer?) -> ServiceAdvertisement? {
        context.map { Unmanaged<ServiceAdvertisement>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Makes the client. With `AVAHI_CLIENT_NO_FAIL` it waits for a daemon
    /// that is not running; only a missing system bus makes it fail, and
    /// then it is tried again later.
    func connect() {
        guard let poll, !stopping else { return }
        var error: Int32 = 0
        // The callback runs first inside avahi_client_new, with the new client.
        let made = avahi_client_new(avahi_threaded_poll_get(poll), AVAHI_CLIENT_NO_FAIL, { client, state, context in
            ServiceAdvertisement.from(context)?.clientChanged(client, state)
        }, context, &error)
        if let made {
            client = made
        } else {
            logAbsence("no system D-Bus: \(String(cString: avahi_strerror(error)))")
            schedule(after: Self.retryMilliseconds)
        }
    }

    /// Frees the group (which withdraws its services), the client and any
    /// pending retry.
    func release() {
        if let retry, let poll { avahi_threaded_poll_get(poll).pointee.timeout_free(retry) }
        retry = nil
        if let group { avahi_entry_group_free(group) }
        group = nil
        forgetNeighbours()
        if let client { avahi_client_free(client) }
        client = nil
        established = false
    }

    private func clientChanged(_ client: OpaquePointer?, _ state: AvahiClientState) {
        guard let client, !stopping else { return }
        self.client = client
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            absenceLogged = false
            register(client)
            browse(client)
        case AVAHI_CLIENT_S_REGISTERING, AVAHI_CLIENT_S_COLLISION:
            // The host's own name is being (re)established: withdraw until
            // the daemon runs again, then register anew.
            if let group { avahi_entry_group_reset(group) }
            established = false
        case AVAHI_CLIENT_CONNECTING:
            logAbsence("none on the system bus")
        case AVAHI_CLIENT_FAILURE:
            established = false
            let error = avahi_client_errno(client)
            if error == Int32(AVAHI_ERR_DISCONNECTED) {
                logger.notice("DNS-SD: the Avahi daemon has gone; advertising again when one runs")
                absenceLogged = true
            } else {
                logger.warning("DNS-SD: Avahi failed (\(String(cString: avahi_strerror(error)))); trying again")
            }
            // Avahi's advice: free the client and make a new one. Not from
            // inside its own callback: from a timeout, just after.
            schedule(after: error == Int32(AVAHI_ERR_DISCONNECTED) ? 100 : Self.retryMilliseconds)
        default:
            break
        }
    }

    private func groupChanged(_ group: OpaquePointer?, _ state: AvahiEntryGroupState) {
        guard let group, !stopping else { return }
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            established = true
            logger.info("DNS-SD: advertised as '\(name)': \(services.map(\.description).joined(separator: ", "))")
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Another host (or program) has the name: Avahi withdrew ours.
            established = false
            takeAlternativeName()
            avahi_entry_group_reset(group)
            if let client = avahi_entry_group_get_client(group) { register(client) }
        case AVAHI_ENTRY_GROUP_FAILURE:
            established = false
            let error = avahi_client_errno(avahi_entry_group_get_client(group))
            logger.warning("DNS-SD: advertising failed: \(String(cString: avahi_strerror(error)))")
        default:
            break
        }
    }

    /// Adds every service under the current name and commits. A name
    /// already used on this machine is refused at once (`AVAHI_ERR_COLLISION`):
    /// then the next alternative is tried.
    private func register(_ client: OpaquePointer) {
        if group == nil {
            group = avahi_entry_group_new(client, { group, state, context in
                ServiceAdvertisement.from(context)?.groupChanged(group, state)
            }, context)
            if group == nil {
                logger.warning("DNS-SD: cannot make an entry group: \(String(cString: avahi_strerror(avahi_client_errno(client))))")
                return
            }
        }
        guard let group, avahi_entry_group_is_empty(group) != 0 else { return }
        let interface = AvahiIfIndex(interface ?? Int32(AVAHI_IF_UNSPEC))
        for _ in 0..<32 {
            var result: Int32 = 0
            for service in services {
                var txt: UnsafeMutablePointer<AvahiStringList>?
                for entry in service.txt { txt = avahi_string_list_add(txt, entry) }
                result = avahi_entry_group_add_service_strlst(
                    group, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0), name, service.type,
                    nil, nil, UInt16(clamping: service.port), txt)
                avahi_string_list_free(txt)
                if result < 0 { break }
            }
            if result == Int32(AVAHI_ERR_COLLISION) {
                avahi_entry_group_reset(group)
                takeAlternativeName()
                continue
            }
            if result < 0 {
                avahi_entry_group_reset(group)
                logger.warning("DNS-SD: cannot advertise '\(name)': \(String(cString: avahi_strerror(result)))")
                return
            }
            let committed = avahi_entry_group_commit(group)
            if committed < 0 {
                logger.warning("DNS-SD: cannot advertise '\(name)': \(String(cString: avahi_strerror(committed)))")
            }
            return
        }
        logger.warning("DNS-SD: every alternative of the name is taken; not advertised")
    }

    /// `Name` becomes `Name #2`, `Name #2` becomes `Name #3`, as Avahi names
    /// alternatives.
    private func takeAlternativeName() {
        let old = name
        guard let alternative = avahi_alternative_service_name(old) else { return }
        let new = String(cString: alternative)
        avahi_free(alternative)
        setName(new)
        logger.notice("DNS-SD: the name '\(old)' is taken; renamed to '\(new)'")
        renamed(new)
    }

    private func logAbsence(_ reason: String) {
        guard !absenceLogged else { return }
        absenceLogged = true
        logger.notice("DNS-SD: no Avahi daemon (\(reason)); not advertised until one runs")
    }

    /// After `milliseconds`, frees the client and makes a new one.
    private func schedule(after milliseconds: UInt32) {
        guard let poll, retry == nil else { return }
        var when = timeval()
        avahi_elapse_time(&when, milliseconds, 0)
        retry = avahi_threaded_poll_get(poll).pointee.timeout_new(avahi_threaded_poll_get(poll), &when, { timeout, context in
            guard let advertisement = ServiceAdvertisement.from(context), !advertisement.stopping else { return }
            advertisement.retryNow()
        }, context)
    }

    private func retryNow() {
        release()
        connect()
    }
}
