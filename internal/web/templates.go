package web

import (
	"html/template"
	"sync"
)

// pages are the page templates, parsed at the first page served: a
// program that links the package without serving (referee replay, check)
// does not pay for them at its start.
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"pathEscape": escapeID,
		"fmtTime":    fmtTime,
	}).Parse(`
{{define "head"}}<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · referee</title>
<link rel="alternate" type="application/atom+xml" title="All games" href="/feed.atom">
{{if .Game}}<link rel="alternate" type="application/atom+xml" title="{{.Game}}" href="/game/{{.Game}}/feed.atom">{{end}}
<style>
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:0 1rem 3rem;color:#222}
nav{padding:.6rem 0;border-bottom:1px solid #ccc;margin-bottom:1rem}
nav a{margin-right:1rem}
table{border-collapse:collapse;margin:.5rem 0 1rem;display:block;max-width:100%;overflow-x:auto}
th,td{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:left;vertical-align:top}
pre{background:#f7f7f4;padding:.8rem;overflow-x:auto;font-size:.85rem}
.legend span.sw{display:inline-block;width:.9rem;height:.9rem;vertical-align:middle;margin-right:.3rem;border:1px solid #999}
.muted{color:#777}
.boardwrap{display:flex;flex-wrap:wrap;gap:1rem 2rem;align-items:flex-start}
.boardwrap figure{margin:0;max-width:100%}
#board{max-width:100%;height:auto}
.legend{list-style:none;padding:0}
svg text{font-family:monospace}
form label{margin-right:1rem}
</style></head><body>
<nav>{{range .Nav}}<a href="{{.Href}}">{{.Text}}</a>{{end}}</nav>
{{with .Stopped}}<p id="stopped" role="alert" style="border:2px solid #b00;padding:.6rem;background:#fee"><strong>The referee has stopped applying mail since <time>{{.}}</time>.</strong>
It could no longer write its record to its disk safely, and waits for its operator.
Mail sent to it meanwhile stays in its mailbox and is read, in order, when it starts again; mail it had applied before is still sent.</p>
{{end}}{{end}}

{{define "foot"}}<footer class="muted"><p>Read-only. Actions are taken by mail{{if .Referee}}: mail <code>help</code> to <a href="mailto:{{.Referee}}">{{.Referee}}</a> to start{{end}}.
Feeds: <a href="/feed.atom">all games</a>{{if .Game}}, <a href="/game/{{.Game}}/feed.atom">this game</a>{{end}}.</p></footer>
</body></html>{{end}}

{{define "index"}}{{template "head" .}}
<h1>The games</h1>
<p>The referee's clock: <time id="now">{{.Now}}</time>; the games last changed at <time id="clock">{{.Clock}}</time>.
Outbox: <span id="outbox">{{.Outbox}}</span> waiting{{if .Failed}}, {{.Failed}} failed for good{{end}}.
{{with .LastSent}}Last sent: <a href="/archive/{{pathEscape .ID}}">{{.Subject}}</a> ({{fmtTime .SentAt}}).{{end}}</p>
<table id="games"><thead><tr><th>Game</th><th>Contestants</th><th>Next event</th><th>Time left</th><th>Last report</th></tr></thead><tbody>
{{range .Games}}<tr data-game="{{.ID}}"><td><a href="/game/{{.ID}}">{{.Title}}</a></td><td>{{.Contestants}}</td>
<td>{{if .Next}}{{.Next}}{{else}}<span class="muted">nothing scheduled</span>{{end}}</td><td>{{.Left}}</td><td>{{.LastReport}}</td></tr>
{{end}}</tbody></table>
{{template "foot" .}}{{end}}

{{define "board"}}<div class="boardwrap"><figure>
<svg id="board" xmlns="http://www.w3.org/2000/svg" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" role="img" aria-label="{{.Caption}}">
<rect x="{{.Margin}}" y="{{.Margin}}" width="{{.GridW}}" height="{{.GridH}}" fill="#fbfbf8" stroke="#999"/>
{{.TilesSVG}}{{range .Marks}}<g class="{{.Class}}" data-x="{{.X}}" data-y="{{.Y}}"><title>{{.Title}}</title>{{if eq .Class "party"}}<circle cx="{{.CX}}" cy="{{.CY}}" r="11" fill="{{.Fill}}" stroke="#000"/>{{else}}<circle cx="{{.CX}}" cy="{{.CY}}" r="6" fill="{{.Fill}}" stroke="#000"/>{{end}}<text x="{{.CX}}" y="{{.CY}}" text-anchor="middle" dominant-baseline="central" font-size="12">{{.Text}}</text></g>
{{end}}{{$m := .Margin}}{{range .XLabels}}<text x="{{.At}}" y="{{$m}}" dy="-6" text-anchor="middle" font-size="10">{{.Text}}</text>{{end}}
{{range .YLabels}}<text x="{{$m}}" y="{{.At}}" dx="-4" text-anchor="end" dominant-baseline="central" font-size="10">{{.Text}}</text>{{end}}
</svg>
<figcaption>{{.Caption}}</figcaption></figure>
<div><h3>Legend</h3><ul class="legend" id="legend">{{range .Legend}}<li data-name="{{.Name}}"><span class="sw" style="background:{{.Fill}}"></span>{{if .Letter}}{{.Letter}} {{end}}{{.Name}} <span class="muted">({{.Count}})</span></li>{{end}}</ul></div></div>
{{end}}

{{define "game"}}{{template "head" .}}
<h1>{{.Title}}</h1>
<p>Contestmaster: {{.Contestmaster}}. {{if .Next}}Next: {{.Next}}, in {{.Left}}.{{else}}Nothing scheduled.{{end}}
<a href="/game/{{.ID}}/feed.atom">Feed</a> · <a href="/archive?game={{.ID}}">Archive</a> · <a href="/journal?game={{.ID}}">Journal</a></p>
{{with .Board}}<section id="map"><h2>Board</h2>{{template "board" .}}</section>{{end}}
<section id="standings"><h2>Standings</h2>
<p>Contestants: {{if .Contestants}}<span id="contestants">{{range $i, $c := .Contestants}}{{if $i}}, {{end}}{{$c}}{{end}}</span>{{else}}none yet{{end}}.</p>
{{with .Holdings}}<table id="holdings"><thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead><tbody>{{range .Rows}}<tr data-name="{{index . 0}}">{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}</tbody></table>{{with .Note}}<p>{{.}}</p>{{end}}{{end}}
{{if .Points}}<table id="points"><thead><tr><th>Player</th><th>Points (G6)</th></tr></thead><tbody>{{range .Points}}<tr><td>{{.Name}}</td><td>{{.Points}}</td></tr>{{end}}</tbody></table>{{end}}
</section>
<section id="params"><h2>Parameters and variants</h2>
<table><thead><tr><th>Name</th><th>Value</th><th>Default</th><th>Rule</th><th>Meaning</th></tr></thead><tbody>
{{range .Params}}<tr><td>{{.Name}}</td><td>{{.Value}}</td><td>{{.Default}}</td><td>{{.Rule}}</td><td>{{.Help}}</td></tr>{{end}}
</tbody></table></section>
<section id="intents"><h2>Open intents</h2>
{{if .Intents}}<table><thead><tr><th>#</th><th>Sponsor</th><th>Action</th><th>Method</th><th>Announced</th><th>May be done</th><th>Expires</th><th>Support</th><th>Objections</th></tr></thead><tbody>
{{range .Intents}}<tr><td>{{.ID}}</td><td>{{.Sponsor}}</td><td>{{.Text}}</td><td>{{.Method}}</td><td>{{.Created}}</td><td>{{.From}}</td><td>{{.Expires}}</td><td>{{.Supporters}}</td><td>{{.Objectors}}</td></tr>{{end}}
</tbody></table>{{else}}<p class="muted">None.</p>{{end}}</section>
<section id="rulings"><h2>Open claims awaiting the contestmaster</h2>
{{if .Rulings}}<table><thead><tr><th>#</th><th>Asked</th><th>Deadline (then the default applies)</th></tr></thead><tbody>
{{range .Rulings}}<tr><td>{{.ID}}</td><td>{{.Asked}}</td><td>{{.Deadline}}</td></tr>{{end}}
</tbody></table><p class="muted">The questions go to the contestmaster privately; the answers appear in the recent events.</p>{{else}}<p class="muted">None.</p>{{end}}</section>
<section id="recent"><h2>Recent events</h2>
{{if .Recent}}<ul>{{range .Recent}}<li><time>{{fmtTime .Time}}</time> {{if .Who}}{{.Who}}: {{end}}{{.What}}</li>{{end}}</ul>{{else}}<p class="muted">Nothing happened yet.</p>{{end}}</section>
<section><h2>The current report</h2>
<p class="muted">As <code>referee report {{.ID}}</code> prints it, and as the weekly report will be mailed.</p>
{{if .ReportError}}<p>The report cannot be made: {{.ReportError}}</p>{{else}}<pre id="report">{{.Report}}</pre>{{end}}</section>
{{template "foot" .}}{{end}}

{{define "archive"}}{{template "head" .}}
<h1>Archive</h1>
<p>Every report and public notice the referee sent to the lists, newest first.</p>
<form method="get" action="/archive"><label>Game <select name="game"><option value="">all</option>{{$g := .Game}}{{range .Games}}<option{{if eq . $g}} selected{{end}}>{{.}}</option>{{end}}</select></label><button>Show</button></form>
{{if .Mails}}<table id="mails"><thead><tr><th>Sent</th><th>Game</th><th>Kind</th><th>Subject</th><th>Message-ID</th></tr></thead><tbody>
{{range .Mails}}<tr><td>{{fmtTime .SentAt}}</td><td>{{.Game}}</td><td>{{.Kind}}</td><td><a href="/archive/{{pathEscape .ID}}">{{.Subject}}</a></td><td><code>&lt;{{.MessageID}}&gt;</code></td></tr>
{{end}}</tbody></table>{{else}}<p class="muted">Nothing sent yet.</p>{{end}}
{{template "foot" .}}{{end}}

{{define "mail"}}{{template "head" .}}
{{with .Mail}}<h1>{{.Subject}}</h1>
<table><tr><th>Message-ID</th><td><code id="message-id">&lt;{{.MessageID}}&gt;</code></td></tr>
<tr><th>Sent</th><td>{{fmtTime .SentAt}}</td></tr><tr><th>To</th><td>the {{.Channel}} list</td></tr>
{{if .Game}}<tr><th>Game</th><td><a href="/game/{{.Game}}">{{.Game}}</a></td></tr>{{end}}
{{if .InReplyTo}}<tr><th>In-Reply-To</th><td><code>{{.InReplyTo}}</code></td></tr>{{end}}</table>
<pre id="body">{{.Body}}</pre>{{end}}
{{template "foot" .}}{{end}}

{{define "journal"}}{{template "head" .}}
<h1>Journal</h1>
<form method="get" action="/journal">
<label>Game <select name="game"><option value="">all</option>{{$g := .Game}}{{range .Games}}<option{{if eq . $g}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<label>Player <input name="player" value="{{.Player}}" size="16"></label>
<label>Outcome <select name="outcome"><option value="">all</option>{{$o := .Outcome}}{{range .Outcomes}}<option{{if eq . $o}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<button>Filter</button></form>
{{if .Error}}<p>The journal could not be read whole: {{.Error}}</p>{{end}}
<p><span id="total">{{.Total}}</span> {{if eq .Total 1}}entry{{else}}entries{{end}}{{if lt .Shown .Total}}, the newest {{.Shown}} shown{{end}}.</p>
<table id="entries"><thead><tr><th>#</th><th>Time</th><th>Game</th><th>Player</th><th>Action</th><th>Outcome</th><th>Message-ID</th></tr></thead><tbody>
{{range .Entries}}<tr><td>#{{.Seq}}</td><td>{{fmtTime .Time}}</td><td>{{.Game}}</td><td>{{.Player}}</td><td>{{.Verb}}</td><td>{{.Outcome}}</td><td>{{if .MsgID}}<code>{{.MsgID}}</code>{{end}}</td></tr>
{{end}}</tbody></table>
{{template "foot" .}}{{end}}
`))
})
