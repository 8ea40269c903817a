#!/usr/bin/env bash
# mailstack.sh: a throw-away Postfix + Dovecot mail stack on 127.0.0.1 for the
# referee's end-to-end tests, run as root without systemd. Everything lives in
# one state dir; nothing in /etc is changed.
#
#   SMTP       127.0.0.1:$MS_SMTP_PORT   (10025; no auth, 127.0.0.0/8 trusted, STARTTLS offered)
#   submission 127.0.0.1:$MS_SUBMIT_PORT (10587; STARTTLS + AUTH PLAIN/LOGIN via Dovecot SASL)
#     -> Postfix (virtual domain example.test; lists fanned out by virtual_alias_maps,
#        each list delivery gets a List-Id header)
#     -> LMTP unix socket -> Dovecot -> Maildir
#   IMAP       127.0.0.1:$MS_IMAP_PORT   (10143; STARTTLS offered), IMAPS $MS_IMAPS_PORT (10993)
#
# Users (password $MS_PASSWORD, default "test"; login = full address):
#   referee, cm (the contestmaster), player1..player6 @example.test
# Lists (members: referee, cm, player1..player6):
#   agora-business@example.test (public), agora-official@example.test (official),
#   agora-discussion@example.test (discussion)
#
# Usage:
#   mailstack.sh start [STATE_DIR]         install if needed, start, write STATE_DIR/env
#   mailstack.sh stop [STATE_DIR]          stop what start started, delete STATE_DIR (MS_KEEP=1 keeps it)
#   mailstack.sh dovecot-stop [STATE_DIR]  stop Dovecot only (Postfix queues meanwhile)
#   mailstack.sh dovecot-start [STATE_DIR] start Dovecot again with the same configuration
# STATE_DIR defaults to /tmp/referee-mailstack. STATE_DIR/env is sourceable
# (MS_* variables: addresses, ports, CA certificate, pids).
# Env: MS_IMAP_PORT MS_IMAPS_PORT MS_SMTP_PORT MS_SUBMIT_PORT MS_PASSWORD,
#      MS_NO_INSTALL=1 to fail instead of installing missing packages.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TEMPLATES=$HERE/mailstack
CMD=${1:-}
D=${2:-/tmp/referee-mailstack}
DOMAIN=example.test

die() { echo "mailstack: $*" >&2; exit 1; }

usage() {
  echo "usage: mailstack.sh start|stop|dovecot-stop|dovecot-start [STATE_DIR]" >&2
  exit 2
}

wait_port() { # port timeout_s
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}

wait_gone() { # pid timeout_s
  local i
  for ((i = 0; i < $2 * 10; i++)); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  return 1
}

install_packages() {
  if command -v dovecot >/dev/null && command -v postfix >/dev/null && command -v openssl >/dev/null &&
    [ -x /usr/lib/dovecot/lmtp ] &&
    [ -x /usr/lib/dovecot/imap ]; then
    return 0
  fi
  [ "${MS_NO_INSTALL:-0}" != 1 ] || die "dovecot-imapd, dovecot-lmtpd or postfix missing (MS_NO_INSTALL=1)"
  export DEBIAN_FRONTEND=noninteractive
  # Without a mailer type Debian's postinst writes no /etc/postfix/main.cf and
  # starts nothing; this instance brings its own configuration anyway.
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  echo "mailstack: installing dovecot-imapd dovecot-lmtpd postfix" >&2
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends dovecot-imapd dovecot-lmtpd postfix openssl >/dev/null
}

# dovecot_start runs Dovecot on the rendered configuration and records its
# master pid in STATE_DIR/dovecot.pid.
dovecot_start() {
  rm -f "$D/run/dovecot/master.pid"
  # Daemons must not inherit the caller's stdio: a daemon holding a pipe open
  # makes `mailstack.sh start | tee log` hang forever.
  dovecot -c "$D/etc/dovecot.conf" </dev/null >>"$D/log/dovecot.log" 2>&1 ||
    { tail -20 "$D/log/dovecot.log" >&2; die "dovecot did not start"; }
  local i
  for ((i = 0; i < 50; i++)); do [ -s "$D/run/dovecot/master.pid" ] && break; sleep 0.1; done
  [ -s "$D/run/dovecot/master.pid" ] || die "dovecot wrote no pid file"
  cat "$D/run/dovecot/master.pid" > "$D/dovecot.pid"
  wait_port "$IMAP_PORT" 20 || { tail -20 "$D/log/dovecot.log" >&2; die "dovecot did not open $IMAP_PORT"; }
  wait_port "$IMAPS_PORT" 5 || die "dovecot did not open $IMAPS_PORT"
  for ((i = 0; i < 50; i++)); do [ -S "$D/run/dovecot/lmtp" ] && break; sleep 0.1; done
  [ -S "$D/run/dovecot/lmtp" ] || die "dovecot opened no lmtp socket"
}

# members prints the pids of process group $1, read from /proc (no procps).
members() {
  local f st rest
  for f in /proc/[0-9]*/stat; do
    read -r st 2>/dev/null <"$f" || continue
    rest=${st##*) } # after "pid (comm) ": "state ppid pgrp ..."
    set -- "$1" $rest
    if [ "${4:-}" = "$1" ]; then
      f=${f#/proc/}
      echo "${f%/stat}"
    fi
  done
}

# stop_tree stops a master process and every process of its process group:
# Dovecot's and Postfix's masters each lead their own group (they call
# setsid), so the group is exactly what they started. A master that takes
# its time (Dovecot's waits for auth and anvil, which Postfix's submission
# processes keep busy) gets its group signalled by number, never by name.
stop_tree() { # name pid command...
  local name=$1 pid=$2 i
  shift 2
  "$@" >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
  wait_gone "$pid" 3 || true
  [ -n "$(members "$pid")" ] || return 0
  kill -TERM -- "-$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    [ -n "$(members "$pid")" ] || return 0
    sleep 0.1
  done
  echo "mailstack: $name processes $(members "$pid" | tr '\n' ' ')ignored SIGTERM, sending KILL" >&2
  kill -KILL -- "-$pid" 2>/dev/null || true
}

dovecot_stop() {
  local pid
  pid=$(cat "$D/dovecot.pid" 2>/dev/null || true)
  # Only the master this state dir's configuration runs: a recycled pid is left alone.
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "-c $D/etc/dovecot.conf"; then
    # The whole group at once: like `doveadm stop`, without the master's wait.
    stop_tree dovecot "$pid" kill -TERM -- "-$pid"
  fi
  rm -f "$D/dovecot.pid"
}

postfix_stop() {
  local pid
  pid=$(cat "$D/postfix.pid" 2>/dev/null || true)
  # Postfix keeps its own pid file in the queue dir while its master runs.
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null &&
    [ "$(tr -d ' ' <"$D/postfix-spool/pid/master.pid" 2>/dev/null)" = "$pid" ]; then
    stop_tree postfix "$pid" postfix -c "$D/postfix" stop
  fi
  rm -f "$D/postfix.pid"
}

load_env() {
  [ -f "$D/env" ] || die "no stack in $D (no $D/env)"
  # shellcheck disable=SC1091
  . "$D/env"
  IMAP_PORT=${MS_IMAP_ADDR##*:}
  IMAPS_PORT=${MS_IMAPS_ADDR##*:}
}

cmd_start() {
  IMAP_PORT=${MS_IMAP_PORT:-10143}
  IMAPS_PORT=${MS_IMAPS_PORT:-10993}
  SMTP_PORT=${MS_SMTP_PORT:-10025}
  SUBMIT_PORT=${MS_SUBMIT_PORT:-10587}
  PASSWORD=${MS_PASSWORD:-test}
  USERS="referee cm player1 player2 player3 player4 player5 player6"
  LISTS="agora-business agora-official agora-discussion"

  [ "$(id -u)" = 0 ] || die "start must run as root"
  case "$D" in /*) ;; *) die "STATE_DIR must be absolute: $D" ;; esac
  # Unix socket paths (.../run/dovecot/auth-postfix) must stay under 108 bytes.
  [ ${#D} -le 60 ] || die "STATE_DIR longer than 60 characters (unix socket limit): $D"
  if [ -f "$D/dovecot.pid" ] && kill -0 "$(cat "$D/dovecot.pid")" 2>/dev/null; then
    die "a stack is already running in $D (run mailstack.sh stop first)"
  fi
  if [ -f "$D/postfix.pid" ] && kill -0 "$(cat "$D/postfix.pid")" 2>/dev/null; then
    die "a stack is already running in $D (run mailstack.sh stop first)"
  fi
  local p
  for p in "$IMAP_PORT" "$IMAPS_PORT" "$SMTP_PORT" "$SUBMIT_PORT"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then die "port $p already in use"; fi
  done

  install_packages

  rm -rf "$D"
  mkdir -p "$D"/{etc,run,state/dovecot,log,mail,tls,postfix,postfix-spool,postfix-data}
  # mktemp-style 0700 dirs would lock out Dovecot's mail processes (uid 8).
  chmod 755 "$D" "$D/mail"
  chown postfix "$D/postfix-data" # master.lock; must belong to mail_owner
  : > "$D/log/dovecot.log"
  : > "$D/log/postfix.log"
  # From here on a failure stops whatever was started.
  trap 'rc=$?; if [ $rc != 0 ]; then postfix_stop; dovecot_stop; fi' EXIT

  # Self-signed certificate, the CA the clients trust (MS_CA_CERT).
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=mail.$DOMAIN" \
    -addext "subjectAltName=DNS:mail.$DOMAIN,DNS:localhost,IP:127.0.0.1" \
    -keyout "$D/tls/key.pem" -out "$D/tls/cert.pem" >/dev/null 2>&1 || die "openssl req failed"
  chmod 600 "$D/tls/key.pem"
  chmod 644 "$D/tls/cert.pem"

  # One passwd-file for Dovecot's passdb and userdb; all mail belongs to
  # Debian's stock "mail" user (uid/gid 8), so no system user is created.
  : > "$D/etc/users"
  : > "$D/postfix/vmailbox"
  local u addr member_list="" l
  for u in $USERS; do
    addr="$u@$DOMAIN"
    mkdir -p "$D/mail/$addr"
    chown 8:8 "$D/mail/$addr"
    echo "$addr:{PLAIN}$PASSWORD:8:8::$D/mail/$addr::" >> "$D/etc/users"
    echo "$addr OK" >> "$D/postfix/vmailbox"
    member_list="${member_list:+$member_list,}$addr"
  done
  chmod 640 "$D/etc/users"
  chgrp dovecot "$D/etc/users"
  : > "$D/postfix/virtual"
  : > "$D/postfix/listid"
  for l in $LISTS; do
    echo "$l@$DOMAIN $member_list" >> "$D/postfix/virtual"
    echo "$l@$DOMAIN OK" >> "$D/postfix/vmailbox"
    # RFC 2919 list identifier, as Mailman writes it: <name.domain>.
    echo "$l@$DOMAIN PREPEND List-Id: <$l.$DOMAIN>" >> "$D/postfix/listid"
  done
  echo "postmaster@$DOMAIN referee@$DOMAIN" >> "$D/postfix/virtual"

  local f
  for f in dovecot.conf:etc/dovecot.conf main.cf:postfix/main.cf master.cf:postfix/master.cf; do
    sed -e "s|@D@|$D|g" -e "s|@IMAP_PORT@|$IMAP_PORT|g" -e "s|@IMAPS_PORT@|$IMAPS_PORT|g" \
      -e "s|@SMTP_PORT@|$SMTP_PORT|g" -e "s|@SUBMIT_PORT@|$SUBMIT_PORT|g" \
      "$TEMPLATES/${f%%:*}.in" > "$D/${f#*:}"
  done

  dovecot_start

  # Before its own postlogd runs, the postfix command logs only to syslog
  # (absent here) and to stderr when that is a tty: on failure, rerun it under
  # script(1) to show why.
  pf_fail() {
    script -qc "postfix -c $D/postfix $1" /dev/null >&2 || true
    cat "$D/log/postfix.log" >&2
    die "postfix $1 failed"
  }
  postfix -c "$D/postfix" check >/dev/null 2>&1 || pf_fail check # creates queue dirs, fixes modes
  postfix -c "$D/postfix" start </dev/null >/dev/null 2>&1 || pf_fail start
  local i
  for ((i = 0; i < 50; i++)); do [ -s "$D/postfix-spool/pid/master.pid" ] && break; sleep 0.1; done
  [ -s "$D/postfix-spool/pid/master.pid" ] || die "postfix wrote no pid file"
  tr -d ' ' < "$D/postfix-spool/pid/master.pid" > "$D/postfix.pid"
  wait_port "$SMTP_PORT" 20 || { tail -20 "$D/log/postfix.log" >&2; die "postfix did not open $SMTP_PORT"; }
  wait_port "$SUBMIT_PORT" 5 || die "postfix did not open $SUBMIT_PORT"

  local players=""
  for i in 1 2 3 4 5 6; do players="${players:+$players,}player$i@$DOMAIN"; done
  cat > "$D/env" <<EOF
MS_DIR=$D
MS_DOMAIN=$DOMAIN
MS_IMAP_ADDR=127.0.0.1:$IMAP_PORT
MS_IMAPS_ADDR=127.0.0.1:$IMAPS_PORT
MS_SMTP_ADDR=127.0.0.1:$SMTP_PORT
MS_SUBMIT_ADDR=127.0.0.1:$SUBMIT_PORT
MS_PASSWORD=$PASSWORD
MS_CA_CERT=$D/tls/cert.pem
MS_REFEREE=referee@$DOMAIN
MS_CONTESTMASTER=cm@$DOMAIN
MS_PLAYERS=$players
MS_BUSINESS_LIST=agora-business@$DOMAIN
MS_OFFICIAL_LIST=agora-official@$DOMAIN
MS_DISCUSSION_LIST=agora-discussion@$DOMAIN
MS_SCRIPT=$HERE/mailstack.sh
EOF
  trap - EXIT
  echo "mailstack: up in $D: IMAP 127.0.0.1:$IMAP_PORT IMAPS :$IMAPS_PORT SMTP :$SMTP_PORT submission :$SUBMIT_PORT (dovecot pid $(cat "$D/dovecot.pid"), postfix pid $(cat "$D/postfix.pid"))"
}

cmd_stop() {
  [ -d "$D" ] || { echo "mailstack: nothing in $D, nothing to stop" >&2; return 0; }
  postfix_stop
  dovecot_stop
  if [ "${MS_KEEP:-0}" = 1 ]; then
    echo "mailstack: stopped; state kept in $D"
  else
    rm -rf "$D"
    echo "mailstack: stopped; removed $D"
  fi
}

case "$CMD" in
start) cmd_start ;;
stop) cmd_stop ;;
dovecot-stop)
  load_env
  dovecot_stop
  ;;
dovecot-start)
  load_env
  if [ -f "$D/dovecot.pid" ] && kill -0 "$(cat "$D/dovecot.pid")" 2>/dev/null; then die "dovecot already running"; fi
  dovecot_start
  # Deliver what Postfix deferred while Dovecot was down now, not at the next retry.
  postqueue -c "$D/postfix" -f >/dev/null 2>&1 || true
  ;;
*) usage ;;
esac
