/// A DNS message as multicast DNS (RFC 6762) uses it: a header, questions and resource records. Only
/// what service discovery (RFC 6763) needs is understood (PTR, SRV, TXT, A, AAAA); other records are
/// kept as opaque bytes.
///
/// Decoding treats every datagram as hostile: names are bounded in length and compression pointers may
/// only point backwards, so no loop or deep chain is followed; counts are checked against the bytes
/// there, so nothing is allocated for what a header merely claims.
public struct DNSMessage: Hashable, Sendable {
    public var id: UInt16 = 0
    /// QR, opcode, AA and the rest, as on the wire. A response has the top bit set.
    public var flags: UInt16 = 0
    public var questions: [Question] = []
    public var answers: [Record] = []
    public var additionals: [Record] = []

    public init(
        id: UInt16 = 0,
        flags: UInt16 = 0,
        questions: [Question] = [],
        answers: [Record] = [],
        additionals: [Record] = []
    ) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.additionals = additionals
    }

    /// A response's flags: QR and AA set, as an mDNS responder sends them.
    public static let responseFlags: UInt16 = 0x8400

    public var isResponse: Bool { flags & 0x8000 != 0 }

    public struct Question: Hashable, Sendable {
        public var name: DNSName
        public var type: UInt16
        /// The class; its top bit asks for a unicast reply (mDNS's QU bit).
        public var classAndUnicast: UInt16

        public init(name: DNSName, type: UInt16, classAndUnicast: UInt16 = 1) {
            self.name = name
            self.type = type
            self.classAndUnicast = classAndUnicast
        }
    }

    public struct Record: Hashable, Sendable {
        public var name: DNSName
        public var ttl: UInt32
        public var data: RecordData
        /// The class; its top bit is mDNS's cache-flush bit.
        public var classAndFlush: UInt16 = 1

        public init(name: DNSName, ttl: UInt32, data: RecordData, classAndFlush: UInt16 = 1) {
            self.name = name
            self.ttl = ttl
            self.data = data
            self.classAndFlush = classAndFlush
        }
    }

    public enum RecordData: Hashable, Sendable {
        case ptr(DNSName)
        case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
        case txt([String])
        case a([UInt8])
        case aaaa([UInt8])
        case other(type: UInt16, bytes: [UInt8])

        public var type: UInt16 {
            switch self {
            case .ptr: DNSType.ptr
            case .srv: DNSType.srv
            case .txt: DNSType.txt
            case .a: DNSType.a
            case .aaaa: DNSType.aaaa
            case .other(let type, _): type
            }
        }
    }
}

/// The record types service discovery uses.
public enum DNSType {
    public static let a: UInt16 = 1
    public static let ptr: UInt16 = 12
    public static let txt: UInt16 = 16
    public static let aaaa: UInt16 = 28
    public static let srv: UInt16 = 33
    public static let any: UInt16 = 255
}

/// Why a datagram is not a DNS message this code reads.
public struct DNSError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension DNSMessage {
    /// The largest message read or written: a multicast DNS packet fits one Ethernet frame, and 9,000
    /// bytes is the most RFC 6762 allows any.
    public static let maximumBytes = 9_000

    /// The message on the wire, names uncompressed.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append(word: id)
        bytes.append(word: flags)
        bytes.append(word: UInt16(questions.count))
        bytes.append(word: UInt16(answers.count))
        bytes.append(word: UInt16(0))
        bytes.append(word: UInt16(additionals.count))
        for question in questions {
            question.name.write(to: &bytes)
            bytes.append(word: question.type)
            bytes.append(word: question.classAndUnicast)
        }
        for record in answers + additionals {
            record.name.write(to: &bytes)
            bytes.append(word: record.data.type)
            bytes.append(word: record.classAndFlush)
            bytes.append(word: UInt16(truncatingIfNeeded: record.ttl >> 16))
            bytes.append(word: UInt16(truncatingIfNeeded: record.ttl))
            var data: [UInt8] = []
            switch record.data {
            case .ptr(let name): name.write(to: &data)
            case .srv(let priority, let weight, let port, let target):
                data.append(word: priority)
                data.append(word: weight)
                data.append(word: port)
                target.write(to: &data)
            case .txt(let strings):
                for string in strings {
                    let utf8 = Array(string.utf8.prefix(255))
                    data.append(UInt8(utf8.count))
                    data += utf8
                }
                if strings.isEmpty { data.append(0) }
            case .a(let address), .aaaa(let address): data = address
            case .other(_, let bytes): data = bytes
            }
            bytes.append(word: UInt16(data.count))
            bytes += data
        }
        return bytes
    }

    /// Reads a datagram.
    ///
    /// - Throws: ``DNSError`` for anything that is not a whole, well-formed message within the limits.
    public init(decoding bytes: [UInt8]) throws(DNSError) {
        guard bytes.count <= Self.maximumBytes else { throw DNSError("a message over \(Self.maximumBytes) bytes") }
        var reader = DNSReader(bytes: bytes)
        id = try reader.word()
        flags = try reader.word()
        let questionCount = Int(try reader.word())
        let answerCount = Int(try reader.word())
        let authorityCount = Int(try reader.word())
        let additionalCount = Int(try reader.word())
        // Every question takes 5 bytes at least, every record 11: a count the bytes cannot hold is a lie.
        guard questionCount * 5 + (answerCount + authorityCount + additionalCount) * 11 <= bytes.count - 12 else {
            throw DNSError("counts larger than the message")
        }
        for _ in 0..<questionCount {
            let name = try reader.name()
            questions.append(Question(name: name, type: try reader.word(), classAndUnicast: try reader.word()))
        }
        for index in 0..<(answerCount + authorityCount + additionalCount) {
            let record = try reader.record()
            if index < answerCount {
                answers.append(record)
            } else if index >= answerCount + authorityCount {
                additionals.append(record)
            }
        }
    }
}

extension [UInt8] {
    fileprivate mutating func append(word: UInt16) {
        append(UInt8(word >> 8))
        append(UInt8(truncatingIfNeeded: word))
    }
}

/// Reads a message front to back.
struct DNSReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func byte() throws(DNSError) -> UInt8 {
        guard offset < bytes.count else { throw DNSError("cut short") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func word() throws(DNSError) -> UInt16 {
        UInt16(try byte()) << 8 | UInt16(try byte())
    }

    mutating func take(_ count: Int) throws(DNSError) -> [UInt8] {
        guard count <= bytes.count - offset else { throw DNSError("cut short") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A name at the offset, following compression pointers backwards only.
    mutating func name() throws(DNSError) -> DNSName {
        var labels: [String] = []
        var length = 0
        var position = offset
        var resume: Int?
        var floor = Int.max
        while true {
            guard position < bytes.count else { throw DNSError("a name cut short") }
            let size = Int(bytes[position])
            if size & 0xC0 == 0xC0 {
                guard position + 1 < bytes.count else { throw DNSError("a name cut short") }
                let target = (size & 0x3F) << 8 | Int(bytes[position + 1])
                // Only backwards, to an earlier place than any pointer followed yet: the targets shrink at
                // every step, so no loop and no chain longer than the message.
                guard target < min(position, floor) else {
                    throw DNSError("a compression pointer that does not point back")
                }
                if resume == nil { resume = position + 2 }
                floor = target
                position = target
                continue
            }
            guard size & 0xC0 == 0 else { throw DNSError("a label of an unknown kind") }
            position += 1
            if size == 0 { break }
            guard position + size <= bytes.count else { throw DNSError("a label cut short") }
            length += size + 1
            guard length <= 255 else { throw DNSError("a name over 255 bytes") }
            labels.append(String(decoding: bytes[position..<position + size], as: UTF8.self))
            position += size
        }
        offset = resume ?? position
        return DNSName(labels: labels)
    }

    mutating func record() throws(DNSError) -> DNSMessage.Record {
        let name = try self.name()
        let type = try word()
        let classAndFlush = try word()
        let ttl = UInt32(try word()) << 16 | UInt32(try word())
        let length = Int(try word())
        guard length <= bytes.count - offset else { throw DNSError("record data cut short") }
        let end = offset + length
        let data: DNSMessage.RecordData
        switch type {
        case DNSType.ptr:
            data = .ptr(try self.name())
        case DNSType.srv:
            data = .srv(priority: try word(), weight: try word(), port: try word(), target: try self.name())
        case DNSType.txt:
            var strings: [String] = []
            while offset < end {
                let size = Int(try byte())
                guard offset + size <= end else { throw DNSError("a TXT string past its record") }
                strings.append(String(decoding: try take(size), as: UTF8.self))
            }
            data = .txt(strings.filter { !$0.isEmpty })
        case DNSType.a where length == 4:
            data = .a(try take(4))
        case DNSType.aaaa where length == 16:
            data = .aaaa(try take(16))
        default:
            data = .other(type: type, bytes: try take(length))
        }
        guard offset == end else { throw DNSError("record data of the wrong length") }
        return DNSMessage.Record(name: name, ttl: ttl, data: data, classAndFlush: classAndFlush)
    }
}
