#if canImport(Glibc)
import Glibc
#endif
import CJack
import Synchronization

/// A JACK client inside the test process that plays test signals and records
/// what comes back: the test's signal generator and tape recorder.
///
/// It has `playPorts` output ports `play_1…play_K` (another prefix if asked), each playing a
/// ``Signal`` that can be changed at any time, and `recordPorts` input ports
/// `rec_1…rec_L`, recorded together into preallocated memory (up to
/// `maxRecordingSeconds`) with the JACK frame time of each period.
///
/// To measure a client under test, use one probe as the source and another
/// as the recorder (source → mixer → recorder). A single probe connected to
/// the mixer both ways forms a feedback loop in the JACK graph, and JACK then
/// delays one of the connections by a period.
///
/// Port numbers in this API are 1-based, as in the port names.
public final class JackProbe: @unchecked Sendable {
    /// What a play port outputs.
    public enum Signal: Sendable, Equatable {
        case silence
        /// `amplitude * sin(2π f t)`, phase-continuous across changes.
        case sine(frequency: Float, amplitude: Float)
        /// A constant level (DC), handy for exact gain measurements.
        case constant(Float)
        /// One sample of `amplitude` every `every` frames, silence between:
        /// each is answered by the impulse response (a filter's measure).
        case impulses(every: Int, amplitude: Float)
    }

    public enum Failure: Error, CustomStringConvertible {
        case cannotOpenClient(server: String, status: UInt32)
        case cannotRegisterPort(String)
        case cannotActivate(code: Int32)
        case cannotConnect(from: String, to: String, code: Int32)
        case cannotDisconnect(from: String, to: String, code: Int32)
        case closed
        case timedOut(String)

        public var description: String {
            switch self {
            case .cannotOpenClient(let server, let status):
                "cannot open a JACK client on server \(server) (jack_status_t 0x\(String(status, radix: 16)))"
            case .cannotRegisterPort(let name): "cannot register JACK port \(name)"
            case .cannotActivate(let code): "jack_activate failed (\(code))"
            case .cannotConnect(let from, let to, let code): "jack_connect \(from) → \(to) failed (\(code))"
            case .cannotDisconnect(let from, let to, let code): "jack_disconnect \(from) → \(to) failed (\(code))"
            case .closed: "the probe is closed"
            case .timedOut(let what): "timed out: \(what)"
            }
        }
    }

    /// The client name JACK gave us (it may add a suffix to make it unique).
    public let clientName: String
    /// The server's sample rate.
    public let sampleRate: Int
    /// Full names of the play ports: `"<client>:play_1"`, …
    public let playPortNames: [String]
    /// Full names of the record ports: `"<client>:rec_1"`, …
    public let recordPortNames: [String]

    private let engine: JackProbeEngine
    /// Non-nil while open. Every JACK call from the test side holds this lock,
    /// so nothing uses the client while ``close()`` closes it.
    private let client: Mutex<Handle>

    /// The client pointer, sendable so the lock can hold it. JACK's client
    /// API may be called from any thread.
    private struct Handle: @unchecked Sendable {
        var client: OpaquePointer?
    }

    /// Opens a client on the named server (never starting one), registers
    /// the ports, allocates the recording memory, and activates.
    public init(
        serverName: String,
        clientName: String = "xp-probe",
        playPorts: Int = 1,
        recordPorts: Int = 1,
        maxRecordingSeconds: Double = 30,
        playPrefix: String = "play_"
    ) throws {
        precondition(playPorts >= 0 && recordPorts >= 0 && maxRecordingSeconds > 0)
        var status = jack_status_t(rawValue: 0)
        guard let handle = crosspoint_jack_client_open_server(clientName, JackNoStartServer, &status, serverName) else {
            throw Failure.cannotOpenClient(server: serverName, status: status.rawValue)
        }
        let actualName = jack_get_client_name(handle).map { String(cString: $0) } ?? clientName
        let rate = Int(jack_get_sample_rate(handle))
        let playNames = (0..<playPorts).map { "\(playPrefix)\($0 + 1)" }
        let recordNames = (0..<recordPorts).map { "rec_\($0 + 1)" }

        let newEngine: JackProbeEngine
        do {
            func register(_ shortName: String, flags: JackPortFlags) throws -> OpaquePointer {
                guard let port = jack_port_register(handle, shortName, JACK_DEFAULT_AUDIO_TYPE,
                                                    UInt(flags.rawValue), 0) else {
                    throw Failure.cannotRegisterPort("\(actualName):\(shortName)")
                }
                return port
            }
            let players = try playNames.map { try register($0, flags: JackPortIsOutput) }
            let recorders = try recordNames.map { try register($0, flags: JackPortIsInput) }
            newEngine = JackProbeEngine(client: handle, sampleRate: rate, playPorts: players, recordPorts: recorders,
                                        capacity: max(1, Int(maxRecordingSeconds * Double(rate))))
        } catch {
            jack_client_close(handle)
            throw error
        }

        // The callbacks hold one retain of the engine, released after close.
        let context = Unmanaged.passRetained(newEngine).toOpaque()
        jack_set_process_callback(handle, jackProbeProcess, context)
        jack_set_xrun_callback(handle, jackProbeXrun, context)
        jack_on_shutdown(handle, jackProbeShutdown, context)
        let result = jack_activate(handle)
        guard result == 0 else {
            jack_client_close(handle)
            Unmanaged<JackProbeEngine>.fromOpaque(context).release()
            throw Failure.cannotActivate(code: result)
        }

        self.engine = newEngine
        self.client = Mutex(Handle(client: handle))
        self.clientName = actualName
        self.sampleRate = rate
        self.playPortNames = playNames.map { "\(actualName):\($0)" }
        self.recordPortNames = recordNames.map { "\(actualName):\($0)" }
    }

    /// Opens a probe on a ``JackServer``.
    public convenience init(server: JackServer, clientName: String = "xp-probe", playPorts: Int = 1,
                            recordPorts: Int = 1, maxRecordingSeconds: Double = 30, playPrefix: String = "play_") throws {
        try self.init(serverName: server.name, clientName: clientName, playPorts: playPorts,
                      recordPorts: recordPorts, maxRecordingSeconds: maxRecordingSeconds, playPrefix: playPrefix)
    }

    deinit {
        close()
    }

    /// Deactivates and closes the client. Idempotent.
    public func close() {
        let taken = client.withLock { handle -> Handle in
            defer { handle.client = nil }
            return handle
        }
        guard let handle = taken.client else { return }
        jack_deactivate(handle)
        jack_client_close(handle)
        // No callback can run any more: drop the retain they held.
        Unmanaged.passUnretained(engine).release()
    }

    // MARK: Signals

    /// Sets what `play_<port>` outputs from the next period on.
    public func setSignal(_ signal: Signal, playPort port: Int) {
        precondition(port >= 1 && port <= engine.playCount, "no play_\(port) on \(clientName)")
        engine.setSignal(signal, port: port - 1)
    }

    /// Sets every play port to the same signal.
    public func setSignalOnAllPlayPorts(_ signal: Signal) {
        for index in 0..<engine.playCount { engine.setSignal(signal, port: index) }
    }

    /// Full name of `play_<port>`.
    public func playPort(_ port: Int) -> String {
        precondition(playPortNames.indices.contains(port - 1), "no play_\(port) on \(clientName)")
        return playPortNames[port - 1]
    }

    /// Full name of `rec_<port>`.
    public func recordPort(_ port: Int) -> String {
        precondition(recordPortNames.indices.contains(port - 1), "no rec_\(port) on \(clientName)")
        return recordPortNames[port - 1]
    }

    // MARK: Graph

    /// Connects two ports by full name (`jack_connect`). Connecting ports
    /// that are already connected is not an error.
    public func connect(from source: String, to destination: String) throws {
        let code = try withClient { jack_connect($0, source, destination) }
        guard code == 0 || code == EEXIST else { throw Failure.cannotConnect(from: source, to: destination, code: code) }
    }

    /// Disconnects two ports by full name (`jack_disconnect`).
    public func disconnect(from source: String, to destination: String) throws {
        let code = try withClient { jack_disconnect($0, source, destination) }
        guard code == 0 else { throw Failure.cannotDisconnect(from: source, to: destination, code: code) }
    }

    /// Full names of the ports on the server matching a JACK regular
    /// expression (empty matches all), e.g. `"^crosspoint:out_"`.
    public func ports(matching pattern: String = "") throws -> [String] {
        try withClient { JackPortList.names(client: $0, pattern: pattern, flags: 0) }
    }

    /// Full names of the ports connected to `port`.
    public func connections(of port: String) throws -> [String] {
        try withClient { client in
            guard let handle = jack_port_by_name(client, port),
                  let list = jack_port_get_all_connections(client, handle) else { return [] }
            defer { jack_free(list) }
            return JackPortList.strings(list)
        }
    }

    /// Waits until at least `count` ports match `pattern` and returns them,
    /// e.g. to wait for a client under test to register its ports.
    @discardableResult
    public func waitForPorts(matching pattern: String, count: Int = 1,
                             timeout: Duration = .seconds(10)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found = try ports(matching: pattern)
            if found.count >= count { return found }
            if ContinuousClock.now >= deadline {
                throw Failure.timedOut("\(count) port(s) matching \(pattern); found \(found)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: Time

    /// Current period size of the server, in frames.
    public var periodSize: Int { (try? withClient { Int(jack_get_buffer_size($0)) }) ?? 0 }

    /// JACK's estimate of the current time in frames (`jack_frame_time`).
    /// Take it right before sending a command to know where in a recording
    /// the command was sent (see ``Recording/sampleIndex(atFrameTime:)``).
    public func currentFrameTime() throws -> UInt32 {
        try withClient { jack_frame_time($0) }
    }

    /// The frame time JACK expects `seconds` from now (`jack_time_to_frames`
    /// of `jack_get_time` plus that): JACK's own map of wall time to frames,
    /// which on a busy machine is not exactly `rate` frames a second.
    public func frameTime(secondsFromNow seconds: Double) throws -> UInt32 {
        try withClient { jack_time_to_frames($0, jack_get_time() &+ UInt64(seconds * 1_000_000)) }
    }

    /// The frame time JACK expects at a Unix time (ahead of now): the wall
    /// clock and JACK's microsecond clock read together, then JACK's map, as
    /// the rig maps a bundle's time tag.
    public func frameTime(atUnixTime time: Double) throws -> UInt32 {
        let microseconds = try jackTime(atUnixTime: time)
        return try withClient { jack_time_to_frames($0, microseconds) }
    }

    /// JACK's microsecond clock (`jack_get_time`) at a Unix time: the wall
    /// clock and JACK's read together. With ``Recording/sampleIndex(atJackTime:)``,
    /// the sample JACK's map gives for that time in the period it falls in.
    public func jackTime(atUnixTime time: Double) throws -> UInt64 {
        try withClient { _ in
            // The wall clock read between two readings of JACK's clock, the
            // tightest of a few tries (a preemption between them would move the answer).
            var best: (jack: UInt64, wall: Double, spread: UInt64)?
            for _ in 0..<8 {
                let before = jack_get_time()
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                let after = jack_get_time()
                let spread = after &- before
                if best == nil || spread < best!.spread {
                    best = (before &+ spread / 2, Double(now.tv_sec) + Double(now.tv_nsec) / 1e9, spread)
                }
                if spread <= 4 { break }
            }
            guard let best else { throw Failure.closed }
            let ahead = time - best.wall
            return best.jack &+ UInt64(max(0, ahead) * 1_000_000)
        }
    }

    /// "Now" in the coordinates of the current recording: the index the
    /// sample being captured at this moment will have. Precise to JACK's
    /// time estimate (a few frames), unlike ``recordedFrameCount``, which
    /// advances a period at a time. Nil when not recording.
    public func currentRecordingPosition() -> Int? {
        guard engine.recordState.load(ordering: .acquiring) == JackProbeEngine.RecordState.recording,
              let now = try? currentFrameTime() else { return nil }
        let first = engine.firstFrameTime.load(ordering: .relaxed)
        return Int(Int32(bitPattern: now &- first))
    }

    // MARK: Recording

    /// True between ``startRecording(timeout:)`` and ``stopRecording(timeout:)``.
    public var isRecording: Bool {
        let state = engine.recordState.load(ordering: .acquiring)
        return state == JackProbeEngine.RecordState.armed || state == JackProbeEngine.RecordState.recording
    }

    /// Frames recorded so far per channel (advances a period at a time).
    public var recordedFrameCount: Int { engine.recordedFrames.load(ordering: .acquiring) }

    /// Process callbacks run since activation.
    public var processCycles: Int { engine.processCycles.load(ordering: .relaxed) }

    /// Xruns the server reported to this client since activation.
    public var xrunCount: Int { engine.xruns.load(ordering: .relaxed) }

    /// True if the server shut down or dropped this client.
    public var serverShutDown: Bool { engine.serverShutDown.load(ordering: .relaxed) }

    /// Starts a new recording (discarding the previous one) and returns once
    /// the first period is being captured.
    public func startRecording(timeout: Duration = .seconds(5)) async throws {
        try withClient { _ in }
        engine.recordState.store(JackProbeEngine.RecordState.armed, ordering: .releasing)
        try await waitForRecordState(JackProbeEngine.RecordState.recording, timeout: timeout,
                                     what: "the recording to start")
    }

    /// Stops recording and returns everything recorded. If the audio thread
    /// does not acknowledge within `timeout` (server stalled or gone), returns
    /// what was recorded until then.
    public func stopRecording(timeout: Duration = .seconds(5)) async throws -> Recording {
        for current in [JackProbeEngine.RecordState.recording, JackProbeEngine.RecordState.armed] {
            if engine.recordState.compareExchange(expected: current, desired: JackProbeEngine.RecordState.stopRequested,
                                     ordering: .acquiringAndReleasing).exchanged { break }
        }
        // Reading is safe even if the audio thread never acknowledges: it only
        // ever writes beyond the published frame count.
        do {
            try await waitForRecordState(JackProbeEngine.RecordState.idle, timeout: timeout,
                                         what: "the recording to stop")
        } catch Failure.timedOut {
            // Fall through with what was recorded.
        }
        return snapshotRecording()
    }

    /// A copy of what has been recorded so far, without stopping.
    public func snapshotRecording() -> Recording {
        let frames = engine.recordedFrames.load(ordering: .acquiring)
        let periodCount = engine.recordedPeriods.load(ordering: .acquiring)
        var channels: [[Float]] = []
        for index in 0..<engine.recordCount {
            channels.append(Array(UnsafeBufferPointer(start: engine.channels[index], count: frames)))
        }
        var periods: [Recording.Period] = []
        periods.reserveCapacity(periodCount)
        for index in 0..<periodCount where engine.periodOffsets[index] < frames {
            // After an xrun JACK moves a cycle's start without its end: no span then.
            let (start, end) = (engine.periodCycleStarts[index], engine.periodCycleEnds[index])
            periods.append(.init(offset: engine.periodOffsets[index], frameTime: engine.periodFrameTimes[index],
                                 cycle: end > start ? start..<end : 0..<0))
        }
        return Recording(channels: channels, sampleRate: sampleRate,
                         firstFrameTime: engine.firstFrameTime.load(ordering: .relaxed),
                         periods: periods, overflowed: engine.overflowed.load(ordering: .relaxed))
    }

    /// Waits until at least `count` frames have been recorded.
    public func waitForRecordedFrames(_ count: Int, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while recordedFrameCount < count {
            if !isRecording { throw Failure.timedOut("\(count) recorded frames: not recording") }
            if ContinuousClock.now >= deadline {
                throw Failure.timedOut("\(count) recorded frames; have \(recordedFrameCount)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    // MARK: Private

    /// Runs `body` with the open client (`Failure.closed` once closed).
    func withClient<Result>(_ body: (OpaquePointer) throws -> Result) throws -> Result {
        try client.withLock { handle in
            guard let client = handle.client else { throw Failure.closed }
            return try body(client)
        }
    }

    private func waitForRecordState(_ wanted: Int, timeout: Duration, what: String) async throws {
        let deadline = ContinuousClock.now + timeout
        while engine.recordState.load(ordering: .acquiring) != wanted {
            if serverShutDown { throw Failure.timedOut("\(what): the JACK server shut down") }
            if ContinuousClock.now >= deadline { throw Failure.timedOut(what) }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
