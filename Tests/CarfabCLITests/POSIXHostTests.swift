import CarScript
import CarfabPOSIX
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// carfab's POSIX host, the engine's platform outside the engine (issue 21). That a new file
/// gets 0644 less the umask, read without setting it, is IntegrityTests' (`umask 027` in a
/// shell: the tests here share one process, whose umask they must not change).
@Suite struct POSIXHostTests {
    @Test func the_umask_is_read_from_the_status_text() {
        #expect(umask(inStatus: Array("Name:\tcarfab\nUmask:\t0027\nState:\tR (running)\n".utf8)) == 0o027)
        #expect(umask(inStatus: Array("Umask:\t0000\n".utf8)) == 0)
        #expect(umask(inStatus: Array("Name:\tcarfab\n".utf8)) == nil)
        #expect(umask(inStatus: Array("Umask:\t0089\n".utf8)) == nil)
    }

    @Test func folders_are_listed_as_bytes_with_their_kind() throws {
        let directory = try temporaryDirectory(with: ["a.carfab": "car suv\n", "sub/b.carfab": ""])
        // A name that is not UTF-8.
        let odd: [UInt8] = Array(directory.path.utf8) + [UInt8(ascii: "/"), 0xFF, 0x2E, 0x63]
        let fd = open(odd.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
        #expect(fd >= 0)
        close(fd)
        let host = POSIXHost()
        let entries = try #require(host.entries(ofFolder: Array(directory.path.utf8)))
        #expect(Set(entries.map(\.name)) == [Array("a.carfab".utf8), Array("sub".utf8), [0xFF, 0x2E, 0x63]])
        #expect(entries.filter(\.isFolder).map(\.name) == [Array("sub".utf8)])
        #expect(host.kind(of: Array(directory.appendingPathComponent("sub").path.utf8)) == .folder)
        #expect(host.kind(of: Array(directory.appendingPathComponent("a.carfab").path.utf8)) == .regular)
        #expect(host.kind(of: Array(directory.appendingPathComponent("none").path.utf8)) == nil)
        #expect(host.entries(ofFolder: Array(directory.appendingPathComponent("none").path.utf8)) == nil)
        // One identity whatever the path that reaches the file.
        let viaSub = Array(directory.appendingPathComponent("sub/../a.carfab").path.utf8)
        #expect(host.identity(of: viaSub) == host.identity(of: Array(directory.appendingPathComponent("a.carfab").path.utf8)))
    }

    @Test func an_engine_given_the_host_reads_and_saves_files() throws {
        let directory = try temporaryDirectory(with: ["fleet.carfab": "car suv 2\n"])
        var options = EngineOptions()
        options.host = POSIXHost()
        let engine = Engine(options: options)
        let run = engine.evaluate("source \(directory.path)/fleet.carfab; save \(directory.path)/out.carfab")
        #expect(run.diagnostics.isEmpty && engine.stock.carCount == 2)
        #expect(try String(contentsOf: directory.appendingPathComponent("out.carfab"), encoding: .utf8).contains("car suv 2"))
    }
}
