/// A file of a web page the server also serves (the application's control
/// page): at `/page/` (its `index.html`), `/page/PATH`, and at `/` to a
/// browser (a request whose `Accept` lists `text/html`).
public struct OSCQueryPageFile: Sendable {
    public var contentType: String
    public var text: String

    public init(contentType: String, text: String) {
        self.contentType = contentType
        self.text = text
    }
}
