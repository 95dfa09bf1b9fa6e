import Foundation
public import InkwellModel

/// What one property of an app's model is, as the replica stores it. A model is a plain `Codable`
/// struct whose stored properties are these wrappers:
///
/// ```swift
/// struct Day: Model {
///     @CounterMap var foods: [String: Int64]
///     @Counter var glassesOfWater: Int64
///     @Register var note: String?
///     @Members var tags: Set<String>
/// }
/// ```
///
/// Each merges as its CRDT does, so two devices that edit the same day offline agree once they sync:
/// counters add, registers keep the latest write, members are added and removed element by element.
protocol ModelField {
    /// The field's value read from `document`, for the property at `path`.
    init(reading document: ModelDocument, at path: String)
    /// What the property holds, for ``ModelDiff`` to compare.
    var snapshot: FieldSnapshot { get }
}

/// A model property's value, as written to compare two versions of a model.
enum FieldSnapshot: Equatable {
    case counter(Int64)
    case register([UInt8]?)
    case counters([String: Int64])
    case members(Set<[UInt8]>)
}

/// A counter: increments from every device add up; it is never overwritten.
@propertyWrapper
public struct Counter: ModelField, Codable, Sendable, Hashable {
    public var wrappedValue: Int64

    public init(wrappedValue: Int64 = 0) {
        self.wrappedValue = wrappedValue
    }

    init(reading document: ModelDocument, at path: String) {
        wrappedValue = document.counter(path)
    }

    var snapshot: FieldSnapshot { .counter(wrappedValue) }

    public init(from decoder: any Decoder) throws { self = try FieldDecoder.read(Self.self, from: decoder) }
    public func encode(to encoder: any Encoder) throws { try FieldEncoder.record(snapshot, to: encoder) }
}

/// A last-writer-wins register: the latest write in the total order holds; `nil` when never written
/// or cleared. Values are stored as their JSON encoding (keys sorted), at most 64 KiB.
@propertyWrapper
public struct Register<Value: Codable & Sendable & Equatable>: ModelField, Codable, Sendable, Equatable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value? = nil) {
        self.wrappedValue = wrappedValue
    }

    init(reading document: ModelDocument, at path: String) {
        wrappedValue = document.value(path).flatMap { try? ModelValueCoding.decoder.decode(Value.self, from: Data($0)) }
    }

    var snapshot: FieldSnapshot {
        .register(wrappedValue.map { [UInt8](try! ModelValueCoding.encoder.encode($0)) })
    }

    public init(from decoder: any Decoder) throws { self = try FieldDecoder.read(Self.self, from: decoder) }
    public func encode(to encoder: any Encoder) throws { try FieldEncoder.record(snapshot, to: encoder) }
}

/// A map of counters, one per key: "rice" → 3. Each key's counter adds up across devices.
@propertyWrapper
public struct CounterMap: ModelField, Codable, Sendable, Hashable {
    public var wrappedValue: [String: Int64]

    public init(wrappedValue: [String: Int64] = [:]) {
        self.wrappedValue = wrappedValue
    }

    init(reading document: ModelDocument, at path: String) {
        let prefix = path + "/"
        var values: [String: Int64] = [:]
        for field in document.fields where field.hasPrefix(prefix) {
            let count = document.counter(field)
            if count != 0 { values[String(field.dropFirst(prefix.count))] = count }
        }
        wrappedValue = values
    }

    var snapshot: FieldSnapshot { .counters(wrappedValue.filter { $0.value != 0 }) }

    public init(from decoder: any Decoder) throws { self = try FieldDecoder.read(Self.self, from: decoder) }
    public func encode(to encoder: any Encoder) throws { try FieldEncoder.record(snapshot, to: encoder) }
}

/// A set whose elements are added and removed one by one; for one element, the latest add or remove
/// in the total order holds.
@propertyWrapper
public struct Members<Element: Codable & Hashable & Sendable>: ModelField, Codable, Sendable, Hashable {
    public var wrappedValue: Set<Element>

    public init(wrappedValue: Set<Element> = []) {
        self.wrappedValue = wrappedValue
    }

    init(reading document: ModelDocument, at path: String) {
        let prefix = path + "/"
        var elements: Set<Element> = []
        for field in document.fields where field.hasPrefix(prefix) && document.value(field) != nil {
            let encoded = Data(field.dropFirst(prefix.count).utf8)
            if let element = try? ModelValueCoding.decoder.decode(Element.self, from: encoded) {
                elements.insert(element)
            }
        }
        wrappedValue = elements
    }

    var snapshot: FieldSnapshot {
        .members(Set(wrappedValue.map { [UInt8](try! ModelValueCoding.encoder.encode($0)) }))
    }

    public init(from decoder: any Decoder) throws { self = try FieldDecoder.read(Self.self, from: decoder) }
    public func encode(to encoder: any Encoder) throws { try FieldEncoder.record(snapshot, to: encoder) }
}

extension Register: Hashable where Value: Hashable {}
