import Testing

@testable import CarfabCLI

/// `Output.writeDecimal`, which writes two digits at a time: every length, both signs, the ends.
@Suite struct DecimalWritingTests {
    @Test func integers_are_written_as_swift_prints_them() {
        var values: [Int64] = [0, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<19 {
            values += [power - 1, power, power + 1, -power, -(power - 1), power * 7 / 3]
            power = power.multipliedReportingOverflow(by: 10).overflow ? power : power * 10
        }
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: 20)
        defer { out.deallocate() }
        for value in values {
            let length = Output.writeDecimal(value, to: out)
            #expect(String(decoding: UnsafeBufferPointer(start: out, count: length), as: UTF8.self) == String(value))
        }
    }
}
