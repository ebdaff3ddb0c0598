import HTTPTypes
public import Hummingbird
import NIOCore

/// Lets through only requests that carry `token`: in an `Authorization: Bearer` header, in the
/// cookie this middleware sets, or once in the URL as `?token=`, which it answers by setting an
/// `HttpOnly`, `SameSite=Strict` cookie and redirecting to the same page without the token (so
/// that the token leaves the address bar and the history). Others get 401.
///
/// `behaviorkit console` puts its console behind it; mount it in front of yours when a random
/// token is the access control you want:
///
/// ```swift
/// let ops = router.group("ops").add(middleware: ConsoleTokenMiddleware<BasicRequestContext>(token: token))
/// console.addRoutes(to: ops)
/// ```
public struct ConsoleTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The name of the cookie that carries the token.
    public static var cookieName: String { "behaviorkit_console_token" }

    private let token: String

    /// A middleware that requires `token`: long and random, of letters, digits, `-` and `_` (it
    /// becomes a cookie's value), as ``ConsoleServer/randomToken()`` makes.
    public init(token: String) {
        self.token = token
    }

    /// Passes the request on when it carries the token; otherwise answers 401.
    public func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            ConsoleSecret.matches(String(header.dropFirst("Bearer ".count)), token)
        {
            return try await next(request, context)
        }
        if ConsoleSecret.matches(request.cookies[Self.cookieName]?.value, token) {
            return try await next(request, context)
        }
        var fields = QueryString.parse(request.uri.query ?? "")
        if ConsoleSecret.matches(fields.removeValue(forKey: "token"), token) {
            let query = QueryString.build(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            var response = Response.redirect(to: request.uri.path + (query.isEmpty ? "" : "?" + query), type: .found)
            response.setCookie(
                Cookie(name: Self.cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.wwwAuthenticate] = "Bearer"
        let message = "401 Unauthorized: open the URL with ?token=… that `behaviorkit console` printed at start.\n"
        return Response(
            status: .unauthorized, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message)))
    }
}
