import Foundation

/// Serves one file over HTTP/1.0 on 127.0.0.1, so stream playback is tested without a network.
final class LoopbackHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let socket: Int32
    private let body: Data
    private let contentType: String

    init(body: Data, contentType: String) throws {
        self.body = body
        self.contentType = contentType
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw MediaError("socket failed") }
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 8) == 0 else { throw MediaError("bind/listen failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [body, contentType] in
            Self.serve(socket: socket, body: body, contentType: contentType)
        }
        thread.start()
    }

    /// Closing the listening socket ends the accept loop.
    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    var uri: String { "http://127.0.0.1:\(port)/stream.wav" }

    private static func serve(socket: Int32, body: Data, contentType: String) {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { return }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(client, &request, request.count)
            let head = "HTTP/1.0 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
                + "Connection: close\r\n\r\n"
            var response = Data(head.utf8)
            response.append(body)
            response.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(client, buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(client)
        }
    }
}
