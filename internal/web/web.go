// Package web is the referee's read-only status page: the games and their
// clocks, each game's board, standings, parameters, intents and recent events,
// the archive of every public notice sent, the journal, Atom feeds, Prometheus
// metrics and a health check. Pages are plain HTML (inline SVG boards, no
// JavaScript).
//
// The server never writes: it reads the state through a viewer that holds the
// daemon's lock for the length of a callback, the journal and the sent-mail
// store from their files. It shows only what the lists have seen or may see
// (reports, public notices, the journal's public columns), so nothing sealed
// appears before the rules reveal it.
package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"referee/contract"
)

// Options are what the server reads.
type Options struct {
	Engine *contract.Engine
	// View calls f with the state under the daemon's lock; f must neither
	// keep nor change it.
	View    func(f func(*contract.State))
	Archive *Archive
	Journal string           // the journal's path
	Now     func() time.Time // the referee's clock
	Metrics *Metrics         // nil: /metrics answers 404
	Referee string           // the referee's address
	// Stopped is when the referee stopped applying mail (its journal
	// stopped on a failed sync: daemon.Daemon.Stopped), the zero time while
	// it applies it; nil: never. Every page says so at its top, and
	// /healthz answers 503. Neither shows the disk's error nor a path:
	// the page has no login and the players read it; the operator has the
	// log and referee check for those.
	Stopped func() time.Time
}

// Server is the web server's handler.
type Server struct {
	o       Options
	mux     *http.ServeMux
	journal *journalCache
}

// New makes the handler.
func New(o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Server{o: o, mux: http.NewServeMux(), journal: newJournalCache(o.Journal)}
	s.mux.HandleFunc("GET /{$}", s.index)
	s.mux.HandleFunc("GET /game/{id}", s.game)
	s.mux.HandleFunc("GET /game/{id}/feed.atom", s.feed)
	s.mux.HandleFunc("GET /feed.atom", s.feed)
	s.mux.HandleFunc("GET /archive", s.archive)
	s.mux.HandleFunc("GET /archive/{id...}", s.mail)
	s.mux.HandleFunc("GET /journal", s.journalPage)
	s.mux.HandleFunc("GET /healthz", s.healthz)
	if o.Metrics != nil {
		s.mux.Handle("GET /metrics", promhttp.HandlerFor(o.Metrics.Registry, promhttp.HandlerOpts{}))
	}
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'")
	s.mux.ServeHTTP(w, r)
}

// Listener is a started server.
type Listener struct {
	srv *http.Server
	ln  net.Listener
}

// Listen starts serving h on addr ("127.0.0.1:8025"; port 0 picks one).
func Listen(addr string, h http.Handler, log *slog.Logger) (*Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("web server stopped", "err", err)
		}
	}()
	return &Listener{srv: srv, ln: ln}, nil
}

// URL is the server's address as a link.
func (l *Listener) URL() string { return "http://" + l.ln.Addr().String() + "/" }

// Close stops the server, letting requests in hand finish for a few seconds.
func (l *Listener) Close() error {
	if l == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return l.srv.Shutdown(ctx)
}

// healthz answers "ok" (200) while the referee applies mail, and
// "stopped" (503) once it has stopped (Options.Stopped).
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	var clock time.Time
	s.o.View(func(st *contract.State) { clock = st.Clock })
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if since := s.stopped(); !since.IsZero() {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "stopped: no mail applied since %s\nclock %s\n", since.UTC().Format(time.RFC3339), clock.UTC().Format(time.RFC3339))
		return
	}
	fmt.Fprintf(w, "ok\nclock %s\n", clock.UTC().Format(time.RFC3339))
}

// stopped is Options.Stopped's answer, or the zero time.
func (s *Server) stopped() time.Time {
	if s.o.Stopped == nil {
		return time.Time{}
	}
	return s.o.Stopped()
}

// --- the index ---

type gameRow struct {
	ID, Title   string
	Contestants int
	Next        string // "round (Mon 2026-12-07 00:00 UTC)"
	Left        string // "5d 3h"
	LastReport  string
}

type indexPage struct {
	page
	Clock, Now string
	Games      []gameRow
	Outbox     int
	Failed     int
	LastSent   *Sent
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	p := indexPage{page: s.page("Games", "")}
	now := s.o.Now().UTC()
	p.Now = now.Format(stamp)
	s.o.View(func(st *contract.State) {
		p.Clock = fmtTime(st.Clock)
		p.Outbox, p.Failed = len(st.Outbox), len(st.Failed)
		for _, g := range s.o.Engine.Games() {
			row := gameRow{ID: g.Spec().ID, Title: g.Spec().Title, Contestants: len(st.Members(g.Spec().ID))}
			if gs := st.Games[g.Spec().ID]; gs != nil {
				row.LastReport = fmtTime(gs.LastReport)
			}
			if ev, ok, err := s.o.Engine.GameNext(st, g.Spec().ID); err == nil && ok {
				row.Next = eventName(ev) + " at " + ev.At.UTC().Format(stamp)
				row.Left = Left(ev.At.Sub(latest(now, st.Clock)))
			}
			p.Games = append(p.Games, row)
		}
	})
	if all, err := s.o.Archive.All(); err == nil && len(all) > 0 {
		p.LastSent = all[len(all)-1]
	}
	s.render(w, "index", p)
}

// --- a game ---

type paramRow struct{ Name, Value, Default, Rule, Help string }

type intentRow struct {
	ID                    int
	Sponsor, Text, Method string
	Created, Expires      string
	From                  string // from when it may be done: "from Sat 2026-12-05 10:00 UTC", "once supported"
	Supporters, Objectors string
}

type gamePage struct {
	page
	ID, Title     string
	Board         *Board
	Contestmaster string
	Contestants   []string
	Points        []pointRow
	Holdings      *Holdings
	Params        []paramRow
	Intents       []intentRow
	Rulings       []rulingRow
	Recent        []contract.Happening
	Report        string
	Next, Left    string
	ReportError   string
}

// rulingRow is a question awaiting the contestmaster's ruling (G8). The
// question itself was asked by private mail and may name a private
// submission: only its number and times are shown.
type rulingRow struct {
	ID              int
	Asked, Deadline string
}

type pointRow struct {
	Name   string
	Points int
}

func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	g := s.o.Engine.Game(id)
	if g == nil {
		s.noGame(w, id)
		return
	}
	p := gamePage{page: s.page(g.Spec().Title, id), ID: id, Title: g.Spec().Title}
	s.o.View(func(st *contract.State) {
		gs := st.Games[id]
		if gs == nil {
			return
		}
		// By name, as the reports name em; an address only for one who is
		// no player.
		p.Contestmaster = st.NameOf(gs.Contestmaster)
		for _, m := range st.Members(id) {
			p.Contestants = append(p.Contestants, m.Name)
		}
		for player, games := range st.Points {
			if n, ok := games[id]; ok {
				p.Points = append(p.Points, pointRow{st.NameOf(player), n})
			}
		}
		p.Holdings = holdings(st, id, gs)
		sort.Slice(p.Points, func(i, j int) bool {
			if p.Points[i].Points != p.Points[j].Points {
				return p.Points[i].Points > p.Points[j].Points
			}
			return p.Points[i].Name < p.Points[j].Name
		})
		for _, d := range g.Spec().Params {
			v := gs.Params[d.Name]
			if ps, ok := g.(contract.ParamShower); ok {
				v = ps.ParamShown(gs, d.Name, v) // as the report shows it
			}
			p.Params = append(p.Params, paramRow{d.Name, v, d.Default, d.Rule, d.Help})
		}
		for _, in := range st.Intents {
			if in.Game != id {
				continue
			}
			from := "once supported"
			if t := in.RipeFrom(); !t.IsZero() {
				from = "from " + fmtTime(t)
			}
			p.Intents = append(p.Intents, intentRow{ID: in.ID, Sponsor: st.NameOf(in.Sponsor), Text: in.Text, Method: in.Describe(),
				Created: fmtTime(in.Created), From: from, Expires: fmtTime(in.Expires()),
				Supporters: names(st, in.Supporters), Objectors: names(st, in.Objectors)})
		}
		asked := map[int]bool{}
		for _, r := range st.Rulings {
			if r.Game == id && r.Answer == "" {
				asked[r.ID] = true
				p.Rulings = append(p.Rulings, rulingRow{r.ID, fmtTime(r.Asked), fmtTime(r.Deadline)})
			}
		}
		// A Claim of Error outlives its ruling's deadline: the question leaves
		// the rulings, but silence leaves the claim open and its notice
		// unratified (G8), and the reports still list it as awaiting the
		// contestmaster; so does the page.
		for _, c := range st.Claims {
			if c.Game == id && !asked[c.Ruling] {
				p.Rulings = append(p.Rulings, rulingRow{c.Ruling, fmtTime(c.Filed), "passed: the claim stays open"})
			}
		}
		// The game keeps them oldest first; the page shows the newest first,
		// those of one second too.
		p.Recent = append(p.Recent, gs.Recent...)
		slices.Reverse(p.Recent)
		p.Board = board(st, id, gs)
		if ev, ok, err := s.o.Engine.GameNext(st, id); err == nil && ok {
			p.Next, p.Left = eventName(ev)+" at "+ev.At.UTC().Format(stamp), Left(ev.At.Sub(latest(s.o.Now(), st.Clock)))
		}
		now := st.Clock
		if now.IsZero() {
			now = s.o.Now().UTC()
		}
		n, err := s.o.Engine.Report(st, id, now)
		if err != nil {
			p.ReportError = err.Error()
		} else {
			p.Report = n.Body
		}
	})
	sort.SliceStable(p.Recent, func(i, j int) bool { return p.Recent[i].Time.After(p.Recent[j].Time) })
	s.render(w, "game", p)
}

func names(st *contract.State, addrs []string) string {
	var out []string
	for _, a := range addrs {
		out = append(out, st.NameOf(a))
	}
	return strings.Join(out, ", ")
}

// --- the archive ---

type archivePage struct {
	page
	Game  string
	Games []string
	Mails []*Sent
}

func (s *Server) archive(w http.ResponseWriter, r *http.Request) {
	all, err := s.o.Archive.All()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	p := archivePage{page: s.page("Archive", ""), Game: r.FormValue("game"), Games: s.gameIDs()}
	if p.Game != "" && s.o.Engine.Game(p.Game) == nil {
		s.noGame(w, p.Game)
		return
	}
	for i := len(all) - 1; i >= 0; i-- {
		if p.Game == "" || all[i].Game == p.Game {
			p.Mails = append(p.Mails, all[i])
		}
	}
	s.render(w, "archive", p)
}

type mailPage struct {
	page
	Mail *Sent
}

func (s *Server) mail(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	all, err := s.o.Archive.All()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	for _, m := range all {
		if m.ID == id {
			s.render(w, "mail", mailPage{page: s.page(m.Subject, m.Game), Mail: m})
			return
		}
	}
	http.Error(w, fmt.Sprintf("no notice %q in the archive", id), http.StatusNotFound)
}

// --- helpers ---

const stamp = "Mon 2006-01-02 15:04 UTC"

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(stamp)
}

func eventName(ev contract.Event) string {
	if ev.Key != "" {
		return ev.Name + " (" + ev.Key + ")"
	}
	return ev.Name
}

// latest is when the time left to an event counts from: the referee's clock
// now, or the state's clock if that is ahead. The state's clock is that of
// its last change, hours or days behind the referee's on a quiet day.
func latest(now, clock time.Time) time.Time {
	if now.Before(clock) {
		return clock
	}
	return now
}

// Left writes the time left to an event as players count it, the whole days
// and hours (or hours and minutes) not yet gone by: "2d 5h", "3h 10m", "1m",
// "due". referee status counts it so too.
func Left(d time.Duration) string {
	if d <= 0 {
		return "due"
	}
	days := int(d / (24 * time.Hour))
	h := int(d % (24 * time.Hour) / time.Hour)
	m := int(d % time.Hour / time.Minute)
	switch {
	case days > 0:
		return strconv.Itoa(days) + "d " + strconv.Itoa(h) + "h"
	case h > 0:
		return strconv.Itoa(h) + "h " + strconv.Itoa(m) + "m"
	default:
		return strconv.Itoa(max(m, 1)) + "m"
	}
}

// noGame answers a page or filter naming a game the referee does not run.
func (s *Server) noGame(w http.ResponseWriter, id string) {
	http.Error(w, fmt.Sprintf("no game %q (the games are %s)", id, strings.Join(s.gameIDs(), ", ")), http.StatusNotFound)
}

func (s *Server) gameIDs() []string {
	var ids []string
	for _, g := range s.o.Engine.Games() {
		ids = append(ids, g.Spec().ID)
	}
	return ids
}

// page is what every page's frame shows.
type page struct {
	Title   string
	Game    string // the game whose feed the page links, "" for all
	Nav     []navLink
	Referee string
	Stopped string // when the referee stopped applying mail, "" while it applies it
}

type navLink struct{ Href, Text string }

func (s *Server) page(title, game string) page {
	p := page{Title: title, Game: game, Referee: s.o.Referee}
	if since := s.stopped(); !since.IsZero() {
		p.Stopped = fmtTime(since)
	}
	p.Nav = append(p.Nav, navLink{"/", "Games"})
	for _, g := range s.o.Engine.Games() {
		p.Nav = append(p.Nav, navLink{"/game/" + g.Spec().ID, g.Spec().Title})
	}
	p.Nav = append(p.Nav, navLink{"/archive", "Archive"}, navLink{"/journal", "Journal"})
	return p
}

func (s *Server) render(w http.ResponseWriter, name string, data any) {
	var b strings.Builder
	if err := pages().ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "render "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}
