/// Protocol-buffer bytes written field by field, so a test can build messages the generated code
/// never would: lengths that lie, varints that never end, fields of the wrong type.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    init() {}

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A varint field (wire type 0).
    mutating func field(_ number: Int, varint value: UInt64) {
        varint(UInt64(number) << 3)
        varint(value)
    }

    /// A length-delimited field (wire type 2) whose length prefix may lie about what follows.
    mutating func field(_ number: Int, bytes value: [UInt8], announcing length: UInt64? = nil) {
        varint(UInt64(number) << 3 | 2)
        varint(length ?? UInt64(value.count))
        bytes += value
    }

    mutating func field(_ number: Int, string value: String) {
        field(number, bytes: Array(value.utf8))
    }

    /// A `ClientFrame` holding one message in the field of its `oneof` (hello 1, push 4, presence 5).
    static func clientFrame(_ field: Int, _ message: [UInt8], announcing length: UInt64? = nil) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.field(field, bytes: message, announcing: length)
        return writer.bytes
    }

    /// A `Hello` with any versions.
    static func hello(version: UInt32, minimum: UInt32, device: [UInt8]) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.field(1, varint: UInt64(version))
        writer.field(2, varint: UInt64(minimum))
        writer.field(3, bytes: device)
        writer.field(4, string: "inkwell-hostile/1")
        return clientFrame(1, writer.bytes)
    }

    /// A `Push` of `pack` into `room`, its pack length prefix possibly lying.
    static func push(room: String, pack: [UInt8], announcing length: UInt64? = nil) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.field(1, string: room)
        writer.field(2, bytes: pack, announcing: length)
        return writer.bytes
    }

    /// A `Pack` envelope with whatever id, compression, body and declared size a test wants.
    /// A `Pack` envelope up to its signature, which the caller appends.
    static func pack(
        compression: UInt64,
        body: [UInt8],
        bodySize: UInt64,
        announcingBody length: UInt64? = nil,
        room: String,
        author: [UInt8]
    ) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.field(2, varint: 1)
        writer.field(3, varint: compression)
        writer.field(4, bytes: body, announcing: length)
        writer.field(5, varint: bodySize)
        writer.field(7, string: room)
        writer.field(8, bytes: author)
        return writer.bytes
    }

    /// A `PackBody` of entries, each leaving its room to the envelope.
    static func packBody(changes: [[UInt8]]) -> [UInt8] {
        var writer = ProtobufWriter()
        for change in changes {
            var entry = ProtobufWriter()
            entry.field(2, bytes: change)
            writer.field(1, bytes: entry.bytes)
        }
        return writer.bytes
    }
}
