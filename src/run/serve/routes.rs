//! Which requests the live page's server answers, and with what: decided from the
//! request's method, path and a few headers, which hyper has parsed. Only paths under
//! the run's random token are answered (the address printed holds it), and, on a
//! loopback address, only requests whose `Host` is a loopback name, so that a web page
//! in the same browser cannot reach the server through a name of its own resolving to
//! 127.0.0.1 (DNS rebinding). A request with a body is refused before the body is read.
//!
//! The routes are one table, [`ROUTES`]: a new one is its name there, a [`Route`] and
//! its arm in `answers::answer`.

use std::net::IpAddr;

/// What is served under the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Route {
    /// The live page.
    Page,
    /// Its updates, as server-sent events.
    Events,
    /// The whole run's page, to save.
    Save,
    /// The run's Prometheus metrics, for a scrape (`metrics_path: /TOKEN/metrics`).
    Metrics,
}

/// The paths under `/TOKEN/`, and what each serves.
pub(super) const ROUTES: [(&str, Route); 4] = [
    ("", Route::Page),
    ("events", Route::Events),
    ("save", Route::Save),
    ("metrics", Route::Metrics),
];

/// What a request gets.
#[derive(Debug, PartialEq)]
pub(super) enum Decision {
    Serve(Route),
    Redirect(String),
    Refused(u16, &'static str),
}

/// What of a request decides its answer.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Asked<'a> {
    /// GET or HEAD (anything else is refused).
    pub(super) read_only: bool,
    /// The request target (a path, perhaps with a query).
    pub(super) path: &'a str,
    pub(super) host: Option<&'a str>,
    /// `Origin`, which a browser sends with a request one page makes of another.
    pub(super) origin: Option<&'a str>,
    /// `Sec-Fetch-Site`: where a browser says the request came from.
    pub(super) fetch_site: Option<&'a str>,
    /// Whether it declares a body (a length other than 0, or chunks).
    pub(super) body: bool,
    /// Whether it has a second `Host` (RFC 9112: a 400).
    pub(super) second_host: bool,
}

/// The answer to `asked`, against the token and whether the server listens on a
/// loopback address.
pub(super) fn decide(asked: &Asked<'_>, token: &str, loopback: bool) -> Decision {
    if asked.body {
        // Refused unread: a body declared and never sent, or of a terabyte, costs
        // nothing.
        return Decision::Refused(400, "this server takes no request body");
    }
    if asked.second_host {
        return Decision::Refused(400, "a request names one Host");
    }
    if !asked.host.is_some_and(|h| host_allowed(h, loopback)) {
        return Decision::Refused(
            403,
            "this server answers to its own address only (the Host of the request is another)",
        );
    }
    let path = asked.path.split(['?', '#']).next().unwrap_or("");
    let mut parts = path.strip_prefix('/').unwrap_or(path).splitn(2, '/');
    let first = parts.next().unwrap_or("");
    if !same_token(first, token) {
        return Decision::Refused(
            403,
            "this page needs the address hp2ps --serve printed, with its token",
        );
    }
    if !asked.read_only {
        return Decision::Refused(405, "only GET is answered");
    }
    let Some(rest) = parts.next() else {
        return Decision::Redirect(format!("/{token}/"));
    };
    let Some(&(_, route)) = ROUTES.iter().find(|(name, _)| *name == rest) else {
        return Decision::Refused(
            404,
            "the server serves the page, its updates and its metrics, no file",
        );
    };
    if route == Route::Save && !same_site(asked) {
        return Decision::Refused(403, "a page of another site cannot ask for a save");
    }
    Decision::Serve(route)
}

/// Whether the token is `token`, compared in a time that does not tell how much of it
/// was right.
fn same_token(given: &str, token: &str) -> bool {
    given.len() == token.len()
        && (given.bytes().zip(token.bytes())).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
}

/// Whether a request comes from the page itself (or a person's address bar, a script
/// without a browser): a browser says so in `Sec-Fetch-Site`, and an `Origin` it sends
/// must be the server's own (the `Host` asked for).
fn same_site(asked: &Asked<'_>) -> bool {
    let site_ok = asked.fetch_site.map_or(true, |s| {
        s.eq_ignore_ascii_case("same-origin") || s.eq_ignore_ascii_case("none")
    });
    let origin_ok = asked.origin.map_or(true, |o| {
        let authority = o.split_once("://").map_or(o, |(_, rest)| rest);
        asked
            .host
            .is_some_and(|h| authority.eq_ignore_ascii_case(h.trim()))
    });
    site_ok && origin_ok
}

/// The update after which a viewer's event stream takes up again: the stream's
/// `Last-Event-ID` (a browser's reconnection says the last update it had), else the
/// `after=N` of the request's query (the page's own: a tab that gave its stream back
/// while hidden, or whose updates fell out of step); `None` for a new viewer, and for
/// anything that is not a number.
pub(super) fn resumed_after(last_event_id: Option<&str>, target: &str) -> Option<u64> {
    let number = |text: &str| text.trim().parse::<u64>().ok();
    let query = || {
        let (_, query) = target.split('#').next()?.split_once('?')?;
        query
            .split('&')
            .find_map(|p| p.strip_prefix("after="))
            .and_then(number)
    };
    last_event_id.and_then(number).or_else(query)
}

/// Whether `ip` is a loopback address, an IPv4 one written as IPv6 (`::ffff:127.0.0.1`)
/// included.
pub(super) fn is_loopback(ip: IpAddr) -> bool {
    ip.to_canonical().is_loopback()
}

/// Whether a request's `Host` may be answered: on a loopback address only a loopback
/// name or address (any port: an ssh tunnel's), elsewhere any.
fn host_allowed(host: &str, loopback: bool) -> bool {
    let port = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    let name = match host.strip_prefix('[') {
        // `[v6]` or `[v6]:port`, nothing else: an unclosed bracket is no address.
        Some(v6) => match v6.split_once(']') {
            Some((address, "")) => address,
            Some((address, rest)) if rest.strip_prefix(':').is_some_and(port) => address,
            _ => return false,
        },
        None => match host.rsplit_once(':') {
            Some((name, p)) if port(p) => name,
            _ => host,
        },
    };
    if name.is_empty() {
        return false;
    }
    if !loopback {
        return true;
    }
    let name = name.to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(is_loopback)
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "0123456789abcdef0123456789abcdef";

    fn get<'a>(path: &'a str, host: Option<&'a str>) -> Asked<'a> {
        Asked {
            read_only: true,
            path,
            host,
            ..Asked::default()
        }
    }

    #[test]
    fn a_stream_resumes_after_the_update_its_browser_or_its_page_names() {
        let events = format!("/{T}/events");
        assert_eq!(resumed_after(None, &events), None);
        assert_eq!(resumed_after(Some("41"), &events), Some(41));
        assert_eq!(resumed_after(None, &format!("{events}?after=7")), Some(7));
        assert_eq!(
            resumed_after(None, &format!("{events}?x=1&after=7#z")),
            Some(7)
        );
        // The browser's reconnection says the newer: the query is the page's first.
        assert_eq!(
            resumed_after(Some("41"), &format!("{events}?after=7")),
            Some(41)
        );
        for odd in ["", "x", "-1", "1e3", "99999999999999999999999"] {
            assert_eq!(resumed_after(Some(odd), &events), None, "{odd:?}");
            let asked = format!("{events}?after={odd}");
            assert_eq!(resumed_after(None, &asked), None, "{odd:?}");
        }
    }

    #[test]
    fn only_the_token_and_a_loopback_host_are_answered() {
        let ok = Some("127.0.0.1:8080");
        let at = |url: &str, host: Option<&str>| decide(&get(url, host), T, true);
        assert_eq!(at(&format!("/{T}/"), ok), Decision::Serve(Route::Page));
        assert_eq!(
            at(&format!("/{T}/events"), ok),
            Decision::Serve(Route::Events)
        );
        assert_eq!(
            at(&format!("/{T}/save?x=1"), ok),
            Decision::Serve(Route::Save)
        );
        assert_eq!(
            at(&format!("/{T}/metrics"), ok),
            Decision::Serve(Route::Metrics)
        );
        assert_eq!(
            at(&format!("/{T}"), ok),
            Decision::Redirect(format!("/{T}/"))
        );
        for url in [
            "/",
            "/events",
            "/metrics",
            "/x/",
            &format!("/{}/", &T[1..]),
            &format!("/{T}0/"),
        ] {
            assert!(matches!(at(url, ok), Decision::Refused(403, _)), "{url}");
        }
        for path in [
            "etc/passwd",
            "../Cargo.toml",
            "page.html",
            "events/x",
            "metrics/",
        ] {
            let d = at(&format!("/{T}/{path}"), ok);
            assert!(matches!(d, Decision::Refused(404, _)), "{path}");
        }
        for host in [
            "localhost:1",
            "LOCALHOST",
            "[::1]:9",
            "127.0.0.2:80",
            "a.localhost:3",
            "[::ffff:127.0.0.1]:80",
        ] {
            let d = at(&format!("/{T}/"), Some(host));
            assert_eq!(d, Decision::Serve(Route::Page), "{host}");
        }
        for host in [
            None,
            Some("evil.example:8080"),
            Some("127.0.0.1.evil.example"),
            Some(""),
            Some("[::1"),
            Some("[::1]x"),
            Some("[::1]:8a"),
        ] {
            let d = at(&format!("/{T}/"), host);
            assert!(matches!(d, Decision::Refused(403, _)), "{host:?}");
        }
        // Bound elsewhere, a name is answered (the token guards the page).
        let far = decide(&get(&format!("/{T}/"), Some("box.lan:80")), T, false);
        assert_eq!(far, Decision::Serve(Route::Page));
        let page = format!("/{T}/");
        let post = Asked {
            read_only: false,
            ..get(&page, ok)
        };
        assert!(matches!(decide(&post, T, true), Decision::Refused(405, _)));
    }

    #[test]
    fn a_body_is_refused_before_anything_else() {
        let with_body = Asked {
            body: true,
            ..get("/", None)
        };
        assert!(matches!(
            decide(&with_body, T, true),
            Decision::Refused(400, _)
        ));
        // Two `Host`s, the first of them good: a 400 too.
        let path = format!("/{T}/");
        let two_hosts = Asked {
            second_host: true,
            ..get(&path, Some("127.0.0.1:8080"))
        };
        assert!(matches!(
            decide(&two_hosts, T, true),
            Decision::Refused(400, _)
        ));
    }

    #[test]
    fn a_save_asked_by_another_site_is_refused() {
        let path = format!("/{T}/save");
        let host = Some("127.0.0.1:8080");
        let from = |origin: Option<&'static str>, site: Option<&'static str>| {
            let asked = Asked {
                origin,
                fetch_site: site,
                ..get(&path, host)
            };
            decide(&asked, T, true)
        };
        let save = Decision::Serve(Route::Save);
        assert_eq!(from(None, None), save);
        assert_eq!(from(None, Some("same-origin")), save);
        assert_eq!(from(None, Some("none")), save);
        assert_eq!(
            from(Some("http://127.0.0.1:8080"), Some("same-origin")),
            save
        );
        for (origin, site) in [
            (None, Some("cross-site")),
            (None, Some("same-site")),
            (Some("http://evil.example"), None),
            (Some("http://127.0.0.1:9999"), Some("same-origin")),
            (Some("null"), None),
            // A header that is not text reads as empty (`http.rs`), never as absent.
            (Some(""), None),
            (None, Some("")),
        ] {
            let d = from(origin, site);
            assert!(
                matches!(d, Decision::Refused(403, _)),
                "{origin:?} {site:?}: {d:?}"
            );
        }
    }

    #[test]
    fn an_ipv4_address_written_as_ipv6_is_loopback() {
        for ip in ["127.0.0.1", "::1", "::ffff:127.0.0.1", "::ffff:127.1.2.3"] {
            assert!(is_loopback(ip.parse().expect("an address")), "{ip}");
        }
        for ip in ["0.0.0.0", "::", "::ffff:10.0.0.1", "192.168.1.1"] {
            assert!(!is_loopback(ip.parse().expect("an address")), "{ip}");
        }
    }
}
