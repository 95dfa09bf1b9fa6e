import Foundation

/// CPython's `random.Random` (Mersenne Twister MT19937), for the calls the anchors' data generator makes:
/// seeded with a small integer, it yields bit for bit the numbers `random.Random(seed)` yields, so the
/// side-by-side workloads draw exactly the strokes the Python anchors draw.
struct PythonRandom {
    private var state = [UInt32](repeating: 0, count: 624)
    private var index = 624
    /// The second value of the last Box–Muller pair, as `random.gauss` caches it.
    private var nextGauss: Double?

    /// `random.Random(seed)` for a seed below 2³².
    init(seed: UInt32) {
        initialise(19_650_218)
        // init_by_array with the key [seed].
        var i = 1
        for _ in 0..<624 {
            state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) &* 1_664_525)) &+ seed
            i += 1
            if i >= 624 {
                state[0] = state[623]
                i = 1
            }
        }
        for _ in 0..<623 {
            state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) &* 1_566_083_941)) &- UInt32(i)
            i += 1
            if i >= 624 {
                state[0] = state[623]
                i = 1
            }
        }
        state[0] = 0x8000_0000
    }

    private mutating func initialise(_ seed: UInt32) {
        state[0] = seed
        for i in 1..<624 {
            state[i] = 1_812_433_253 &* (state[i - 1] ^ (state[i - 1] >> 30)) &+ UInt32(i)
        }
        index = 624
    }

    private mutating func twist() {
        for i in 0..<624 {
            let y = (state[i] & 0x8000_0000) | (state[(i + 1) % 624] & 0x7FFF_FFFF)
            state[i] = state[(i + 397) % 624] ^ (y >> 1) ^ ((y & 1) == 0 ? 0 : 0x9908_B0DF)
        }
        index = 0
    }

    /// `genrand_uint32`.
    mutating func next32() -> UInt32 {
        if index >= 624 { twist() }
        var y = state[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C_5680
        y ^= (y << 15) & 0xEFC6_0000
        y ^= y >> 18
        return y
    }

    /// `random()`: 53 random bits in [0, 1).
    mutating func random() -> Double {
        let a = Double(next32() >> 5)
        let b = Double(next32() >> 6)
        return (a * 67_108_864 + b) * (1 / 9_007_199_254_740_992)
    }

    mutating func uniform(_ a: Double, _ b: Double) -> Double {
        a + (b - a) * random()
    }

    /// `gauss(mu, sigma)`, with its cached second value.
    mutating func gauss(_ mu: Double, _ sigma: Double) -> Double {
        let z: Double
        if let cached = nextGauss {
            z = cached
            nextGauss = nil
        } else {
            let angle = random() * 2 * Double.pi
            let radius = (-2 * log(1 - random())).squareRoot()
            z = cos(angle) * radius
            nextGauss = sin(angle) * radius
        }
        return mu + z * sigma
    }

    /// `choice(seq)`: `_randbelow` by rejection on `getrandbits(n.bit_length())`.
    mutating func choice<Element>(_ elements: [Element]) -> Element {
        let count = UInt32(elements.count)
        let bits = UInt32(32 - count.leadingZeroBitCount)
        var draw = next32() >> (32 - bits)
        while draw >= count { draw = next32() >> (32 - bits) }
        return elements[Int(draw)]
    }
}
