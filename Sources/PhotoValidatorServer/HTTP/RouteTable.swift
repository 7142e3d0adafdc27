import Hummingbird

/// The routes the router serves, for answering 405 with `Allow` when a path exists under other
/// methods, and for keeping the OpenAPI document in step.
package struct RouteTable: Sendable {
    /// One route: a path template and a method.
    package struct Route: Sendable, Hashable {
        /// Path components; `{name}` and `:name` match any one component.
        package let components: [String]
        /// The method.
        package let method: HTTPRequest.Method

        /// The template as text, with parameters written `{name}`.
        package var path: String {
            "/" + components.map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : $0 }.joined(separator: "/")
        }
    }

    /// Every route.
    package let routes: [Route]

    /// A table of `routes`.
    package init(routes: [Route]) {
        self.routes = routes
    }

    /// The routes of `router`.
    package init(_ router: Router<some RequestContext>) {
        routes = router.routes.map { route in
            Route(components: route.path.description.split(separator: "/").map(String.init), method: route.method)
        }
    }

    /// The methods served at `path`, sorted; empty when no route matches the path.
    package func methods(matching path: String) -> [HTTPRequest.Method] {
        let components = path.split(separator: "/").map(String.init)
        let methods = routes.filter { route in
            route.components.count == components.count && zip(route.components, components).allSatisfy { template, actual in
                template.hasPrefix(":") || template.hasPrefix("{") || template == actual
            }
        }.map(\.method)
        return Array(Set(methods)).sorted { $0.rawValue < $1.rawValue }
    }
}
