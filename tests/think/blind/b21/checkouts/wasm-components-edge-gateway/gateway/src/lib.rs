#[allow(warnings)]
mod bindings;

use bindings::exports::wasi::http::incoming_handler::Guest;
use bindings::wasi::http::types::{IncomingRequest, ResponseOutparam};

mod routes;

struct Gateway;

impl Guest for Gateway {
    fn handle(request: IncomingRequest, out: ResponseOutparam) {
        routes::dispatch(request, out);
    }
}

bindings::export!(Gateway with_types_in bindings);
