package web

import (
	"encoding/xml"
	"net/http"
	"net/url"
	"strings"
	"time"

	"referee/contract"
)

// The Atom feeds (RFC 4287): the archive's notices, newest first, per game
// and for every game.

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Author  atomPerson  `xml:"author"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name  string `xml:"name"`
	Email string `xml:"email,omitempty"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

type atomEntry struct {
	ID        string     `xml:"id"`
	Title     string     `xml:"title"`
	Updated   string     `xml:"updated"`
	Published string     `xml:"published"`
	Links     []atomLink `xml:"link"`
	Category  *struct {
		Term string `xml:"term,attr"`
	} `xml:"category,omitempty"`
	Content atomText `xml:"content"`
}

// feedLimit is how many notices a feed carries.
const feedLimit = 50

// midURI is a Message-ID as a URI (RFC 2392): an entry's id never changes.
func midURI(msgid string) string {
	return "mid:" + url.PathEscape(msgid)
}

func (s *Server) feed(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	title := "referee: every game"
	self := "/feed.atom"
	alt := "/"
	if id != "" {
		g := s.o.Engine.Game(id)
		if g == nil {
			http.Error(w, "no game "+id, http.StatusNotFound)
			return
		}
		title = "referee: " + g.Spec().Title
		self, alt = "/game/"+id+"/feed.atom", "/game/"+id
	}
	all, err := s.o.Archive.All()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	base := "http://" + r.Host
	f := atomFeed{ID: "urn:referee:feed:" + strings.TrimPrefix(self, "/"), Title: title,
		Author: atomPerson{Name: "referee", Email: s.o.Referee},
		Links:  []atomLink{{Rel: "self", Type: "application/atom+xml", Href: base + self}, {Rel: "alternate", Type: "text/html", Href: base + alt}}}
	var updated time.Time
	for i := len(all) - 1; i >= 0 && len(f.Entries) < feedLimit; i-- {
		m := all[i]
		if id != "" && m.Game != id {
			continue
		}
		at := m.SentAt
		if at.IsZero() {
			at = m.Time
		}
		if at.After(updated) {
			updated = at
		}
		e := atomEntry{ID: midURI(m.MessageID), Title: m.Subject, Updated: at.UTC().Format(time.RFC3339), Published: at.UTC().Format(time.RFC3339),
			Links:   []atomLink{{Rel: "alternate", Type: "text/html", Href: base + "/archive/" + escapeID(m.ID)}},
			Content: atomText{Type: "text", Body: m.Body}}
		if m.Kind != "" {
			e.Category = &struct {
				Term string `xml:"term,attr"`
			}{m.Kind}
		}
		f.Entries = append(f.Entries, e)
	}
	if updated.IsZero() {
		s.o.View(func(st *contract.State) { updated = st.Clock })
	}
	if updated.IsZero() {
		updated = s.o.Now()
	}
	f.Updated = updated.UTC().Format(time.RFC3339)
	w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
	w.Write([]byte(xml.Header))
	enc := xml.NewEncoder(w)
	enc.Indent("", " ")
	if err := enc.Encode(f); err != nil {
		return
	}
	w.Write([]byte("\n"))
}

func escapeID(id string) string {
	parts := strings.Split(id, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
