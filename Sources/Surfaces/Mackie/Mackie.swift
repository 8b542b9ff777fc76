/// The Mackie Control protocol as the rig speaks it (docs/surfaces.md,
/// "Mackie Control"; as Ardour's `libs/surfaces/mackie` and the X-Touch's
/// manual document it): what each control sends, and the messages that
/// move faders, light LEDs and write the displays. Each unit has 8 strips.
public enum Mackie {
    public static let stripsPerUnit = 8

    /// Notes: each strip's buttons (REC, SOLO, MUTE, SELECT: strip 0…7 added).
    public static let rec = 0, solo = 8, mute = 16, select = 24
    /// Notes: the assignment buttons that choose the mode.
    public static let track = 40, send = 41, pan = 42, plugIn = 43
    /// Notes: BANK ◀ ▶ (by 8 strips) and CHANNEL ◀ ▶ (by 1).
    public static let bankLeft = 46, bankRight = 47, channelLeft = 48, channelRight = 49
    /// Notes: a finger on strip 0…7's fader, and on the master fader.
    public static let faderTouch = 104, masterTouch = 112
    /// CCs: the V-pots (strip added; relative) and their LED rings.
    public static let vPot = 16, ring = 48
    /// Pitch bend channel (1-based) of the master fader; strips are 1…8.
    public static let masterChannel = 9
    /// Characters a strip has on each row of the LCD (the rows are 56 long).
    public static let lcdWidth = 7

    /// A fader's position (0…1) as pitch bend on the fader's channel (0-based: 0…7 strips, 8 master).
    public static func fader(_ channel: Int, at position: Float) -> [UInt8] {
        let raw = position.isNaN ? 0 : Int((min(max(position, 0), 1) * 16383).rounded())
        return [0xE0 | UInt8(channel & 0x0F), UInt8(raw & 0x7F), UInt8(raw >> 7)]
    }

    /// A button's LED, on or off.
    public static func led(_ note: Int, _ on: Bool) -> [UInt8] {
        [0x90, UInt8(note & 0x7F), on ? 0x7F : 0x00]
    }

    /// The V-pot's LED ring showing a pan (−1…1) as one dot of eleven, the
    /// centre LED lit at the middle; nil shows nothing.
    public static func ring(_ strip: Int, pan: Float?) -> [UInt8] {
        guard let pan, pan.isFinite else { return [0xB0, UInt8(ring + strip), 0] }
        let share = (min(max(pan, -1), 1) + 1) / 2
        let centre: UInt8 = abs(pan) < 0.05 ? 0x40 : 0
        return [0xB0, UInt8(ring + strip), centre | UInt8(Int((share * 10).rounded()) + 1)]
    }

    /// The steps a V-pot sent: bit 6 the direction (set: anticlockwise), bits 0–5 how many.
    public static func steps(_ value: Int) -> Int { value & 0x40 == 0 ? value & 0x3F : -(value & 0x3F) }

    /// Text on a unit's LCD from `offset` (0…55 the top row, 56…111 the
    /// bottom), as 7-bit ASCII; `extender`: an extender's device id.
    public static func lcd(extender: Bool, offset: Int, _ text: String) -> [UInt8] {
        let characters = text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? UInt8($0.value) : UInt8(ascii: "?") }
        return [0xF0, 0x00, 0x00, 0x66, extender ? 0x15 : 0x14, 0x12, UInt8(offset & 0x7F)] + characters + [0xF7]
    }

    /// The X-Touch's scribble strip colours, one per strip (0 off, 1 red,
    /// 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white); other
    /// Mackie Control units ignore it.
    public static func colours(extender: Bool, _ colours: [UInt8]) -> [UInt8] {
        [0xF0, 0x00, 0x00, 0x66, extender ? 0x15 : 0x14, 0x72] + colours.map { $0 & 0x07 } + [0xF7]
    }

    /// The two-character display (the assignment display), e.g. the first strip's number.
    public static func twoCharacters(_ text: String) -> [[UInt8]] {
        let characters = Array(text.uppercased().unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }.suffix(2))
        let padded = Array(repeating: UInt8(ascii: " "), count: 2 - characters.count) + characters
        let segment = { (c: UInt8) -> UInt8 in c >= 0x40 && c <= 0x5F ? c - 0x40 : c >= 0x20 && c <= 0x3F ? c : 0x20 }
        return [[0xB0, 0x4B, segment(padded[0])], [0xB0, 0x4A, segment(padded[1])]]
    }

    /// A strip's meter (channel pressure): 0…12, a step each 5 dB from −60 dB to 0 dB.
    public static func meter(_ strip: Int, decibels: Float) -> [UInt8] {
        let level = decibels.isFinite ? min(max(Int(((decibels + 60) / 5).rounded(.down)), 0), 12) : 0
        return [0xD0, UInt8((strip & 0x07) << 4 | level)]
    }
}
