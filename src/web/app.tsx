// The shell: who is signed in decides which pages exist; the path decides which one shows.
import type { ComponentChildren, FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "./api";
import { Button, ErrorNotice, Loading, Page } from "./components/ui";
import { lecturerHome, useToday, waitingCounts, type Today } from "./staff-today";
import { staffPages } from "./pages/dosen";
import { studentPages } from "./pages/mahasiswa";
import { Activation } from "./pages/Activation";
import { GantiPassword } from "./pages/GantiPassword";
import { OfflineBanner, OfflinePage } from "./pages/Offline";
import { PrivacyGatePage } from "./pages/privasi/Notice";
import { SignIn } from "./pages/SignIn";
import { followLink, navigate, useLocation } from "./router";
import { matchPage, pageRoutes, pathOf, type PageName } from "./routes";
import { resumeSession, retrySession, signOut, useSession } from "./session";
import { common, consoleClosedTitle, consoleLink, errors, staff, student } from "./strings";
import { useConsoleReach } from "./console-reach";
import type { PageProps, User } from "./types";
import { useUnreadNotes } from "./unread-catatan";

/** The pages of each kind of account, by name. */
const signedInPages: Partial<Record<PageName, FunctionComponent<PageProps>>> = { ...studentPages, ...staffPages };

/** The console's pages, a chunk of their own: fetched the first time an admin opens one. */
let consolePages: Promise<Partial<Record<PageName, FunctionComponent<PageProps>>>> | null = null;

function ConsolePageLoader(props: PageProps & { name: PageName }) {
  const [pages, setPages] = useState<Partial<Record<PageName, FunctionComponent<PageProps>>> | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const reach = useConsoleReach(props.user);
  useEffect(() => {
    consolePages ??= import("./pages/admin").then((module) => module.adminPages);
    consolePages.then(setPages, (error: unknown) => {
      // A chunk that did not arrive (the connection) is asked for again next time.
      consolePages = null;
      setFailed(error);
    });
  }, []);
  if (reach && !reach.open) {
    return (
      <Page title={consoleClosedTitle}>
        <p>{reach.reason}</p>
      </Page>
    );
  }
  if (failed) return <ErrorNotice error={new ApiError(0, errors.offline)} />;
  const Current = pages?.[props.name];
  return Current ? <Current user={props.user} params={props.params} search={props.search} /> : <Loading />;
}

const studentNav: [PageName, string][] = [
  ["beranda", student.nav.beranda],
  ["kuesioner", student.nav.kuesioner],
  ["hasil", student.nav.hasil],
  ["riwayat", student.nav.riwayat],
  ["mood", student.nav.mood],
  ["jurnal", student.nav.jurnal],
  ["catatan", student.nav.catatan],
  ["profil", student.nav.profil],
  ["dataSaya", student.nav.dataSaya],
];
/** A lecturer's menu (decisions §19): their first page, then their students and cases, and their profile. */
const lecturerNav: [PageName, string][] = [
  ["hariIni", staff.nav.hariIni],
  ["bimbingan", staff.nav.bimbingan],
  ["tindakLanjut", staff.nav.tindakLanjut],
  ["statistik", staff.nav.statistik],
  ["profilDosen", staff.nav.profil],
];
/** An admin's menu: the lecturer pages an admin acts on for a chosen lecturer, and the console (whose own menu lists its pages). */
const adminNav: [PageName, string][] = [
  ["bimbingan", staff.nav.bimbingan],
  ["tindakLanjut", staff.nav.tindakLanjut],
  ["statistik", staff.nav.statistik],
  ["konsol", consoleLink],
];

/** Whether a page is for this user: students theirs, lecturers and admins the staff pages, admins the console too. */
function mayOpen(user: User, name: PageName): boolean {
  const role = pageRoutes[name].role;
  if (role === "mahasiswa") return user.role === "mahasiswa";
  if (role === "staff") return user.role !== "mahasiswa";
  return role === "admin" && user.role === "admin";
}

/** An account's first page; a lecturer's depends on what they have (lecturerHome), known once their first page has answered. */
const homeOf = (user: User, today: Today | null | undefined): PageName =>
  user.role === "mahasiswa" ? "beranda" : user.role === "admin" ? "bimbingan" : lecturerHome(today);

export function App() {
  const session = useSession();
  const { pathname, search } = useLocation();
  useEffect(() => void resumeSession(), []);
  const signedIn = session.status === "signed-in" ? session.user : null;
  // A lecturer's counts, asked again on every page they open.
  const today = useToday(signedIn?.role === "dosen" ? signedIn.Id_User : null, pathname);

  if (session.status === "checking") {
    return (
      <Shell>
        <p class="loading" role="status">
          {common.loading}
        </p>
      </Shell>
    );
  }
  if (session.status === "offline") {
    return (
      <Shell>
        <OfflinePage onRetry={retrySession} />
      </Shell>
    );
  }
  const match = matchPage(pathname);

  if (session.status === "signed-out") {
    if (match?.name === "aktivasi") return <Shell><Activation /></Shell>;
    // Every other page asks to sign in first and comes back afterwards.
    return (
      <Shell>
        <SignIn notice={session.notice} returnTo={match && match.name !== "masuk" ? pathname : null} />
      </Shell>
    );
  }

  const { user } = session;
  // A one-time password an admin set is replaced before anything else; the path waits.
  if (session.passwordChange) {
    return (
      <Shell>
        <GantiPassword gate={session.passwordChange} />
      </Shell>
    );
  }
  // A student who has not acknowledged the notice in force sees it before any page; the path waits.
  if (session.privacy) {
    return (
      <Shell>
        <PrivacyGatePage gate={session.privacy} />
      </Shell>
    );
  }
  // The console's own address leads to its first page.
  if (match?.name === "konsol" && user.role === "admin") {
    navigate(pathOf("adminAkun"), { replace: true });
    return null;
  }
  if (!match || match.name === "masuk" || match.name === "aktivasi" || !mayOpen(user, match.name)) {
    if (match && (match.name === "masuk" || match.name === "aktivasi" || match.name === "beranda")) {
      // A lecturer lands once their first page has said what they have.
      if (user.role === "dosen" && today === undefined) {
        return (
          <Shell user={user} current={null} today={today}>
            <Loading />
          </Shell>
        );
      }
      navigate(pathOf(homeOf(user, today)), { replace: true });
      return null;
    }
    // A page of the other kind of account (the guests' pages went home above) says whose it is; either way the link leads home.
    const forOthers = match ? (pageRoutes[match.name].role as "mahasiswa" | "staff" | "admin") : null;
    const home = user.role === "mahasiswa" ? "mahasiswa" : "staff";
    return (
      <Shell user={user} current={null} today={today}>
        <Page title={forOthers ? errors.wrongRoleTitle[forOthers] : common.notFoundTitle}>
          <p>{forOthers ? errors.wrongRole[forOthers] : common.notFoundText}</p>
          <p>
            <a class="button button-primary" href={pathOf(homeOf(user, today))}>
              {common.toHome[home]}
            </a>
          </p>
        </Page>
      </Shell>
    );
  }
  const Current = signedInPages[match.name];
  return (
    <Shell user={user} current={match.name} today={today}>
      {Current ? <Current user={user} params={match.params} search={search} /> : <ConsolePageLoader name={match.name} user={user} params={match.params} search={search} />}
    </Shell>
  );
}

function Shell(props: { user?: User; current?: PageName | null; today?: Today | null; children: ComponentChildren }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const reach = useConsoleReach(props.user);
  const menu = props.user ? (props.user.role === "mahasiswa" ? studentNav : props.user.role === "admin" ? adminNav : lecturerNav) : [];
  // The console's link only where the console answers (serve --admin-web).
  const nav = reach && !reach.open ? menu.filter(([name]) => name !== "konsol") : menu;
  const waiting = waitingCounts(props.today);
  const unreadNotes = useUnreadNotes(props.user?.role === "mahasiswa" ? props.user.Id_User : null);
  useEffect(() => setMenuOpen(false), [props.current]);
  return (
    <div class="shell" onClick={followLink}>
      <a class="skip-link" href="#isi">
        {common.skipToContent}
      </a>
      <header class="top-bar">
        <a class="brand" href={props.user ? pathOf(homeOf(props.user, props.today)) : pathOf("masuk")}>
          <span class="brand-mark" aria-hidden="true" />
          {common.appName}
        </a>
        {props.user && (
          <>
            <button type="button" class="menu-button" aria-expanded={menuOpen} aria-controls="navigasi" onClick={() => setMenuOpen(!menuOpen)}>
              {menuOpen ? common.closeMenu : common.menu}
            </button>
            <nav id="navigasi" class={`main-nav${menuOpen ? " open" : ""}`} aria-label={common.mainNavigation}>
              <ul>
                {nav.map(([name, label]) => (
                  <li key={name}>
                    <a href={pathOf(name)} aria-current={props.current === name ? "page" : name === "konsol" && props.current?.startsWith("admin") ? "true" : undefined}>
                      {label}
                      {name === "catatan" && unreadNotes ? <span class="nav-count">{student.unreadNotes(unreadNotes)}</span> : null}
                      {name === "hariIni" && waiting.hariIni > 0 ? <span class="nav-count">{staff.today.navCount(waiting.hariIni)}</span> : null}
                      {name === "tindakLanjut" && waiting.tindakLanjut > 0 ? <span class="nav-count">{staff.today.navWaiting(waiting.tindakLanjut)}</span> : null}
                    </a>
                  </li>
                ))}
              </ul>
              <div class="account">
                <span class="account-name">{common.signedInAs(props.user.nama || props.user.username, common.roles[props.user.role] ?? props.user.role)}</span>
                <Button
                  variant="secondary"
                  busy={leaving}
                  onClick={async () => {
                    setLeaving(true);
                    try {
                      await signOut();
                    } finally {
                      setLeaving(false);
                      navigate(pathOf("masuk"), { replace: true });
                    }
                  }}
                >
                  {leaving ? common.signingOut : common.signOut}
                </Button>
              </div>
            </nav>
          </>
        )}
      </header>
      <OfflineBanner />
      <main id="isi" tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}
