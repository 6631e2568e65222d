import type { Catalog } from './en.js';

/**
 * German, for Nextcloud's `de` (du) and `de_DE` (Sie) alike: the texts address nobody
 * directly (infinitives and impersonal forms, as many of Nextcloud's own German texts do), so
 * one catalog fits both forms of address. Terms as Nextcloud's German catalogs use them:
 * Konto, Freigabe, Gruppe, Administration, App-Passwort, Anmeldename; the spec's own terms:
 * Archivserver, Archivkonto.
 */
let built: Catalog | undefined;

/** Built when German is first asked for: a run in English never spends its start on these texts. */
export function de(): Catalog {
  built ??= {
    'invalid_url.no_scheme': 'Die URL des Archivservers ist keine URL: mit Schema angeben, zum Beispiel https://paperless.example.com.',
    'invalid_url.no_authority': 'Die URL des Archivservers ist keine URL: in der Form http(s)://host[:port][/pfad] angeben.',
    'invalid_url.no_host': 'Die URL des Archivservers enthält keinen Hostnamen.',
    'invalid_url.unparsable': 'Die URL des Archivservers ist keine URL: Hostname und Port prüfen.',
    'unsupported_scheme.scheme': 'Die URL des Archivservers muss mit http:// oder https:// beginnen, nicht mit {scheme}:.',
    'url_extras.query': 'Die URL des Archivservers darf weder eine Abfrage (?…) noch ein Fragment (#…) enthalten: nur Schema, Host, Port und Pfad angeben.',
    'url_extras.credentials':
      'Die URL des Archivservers darf keinen Benutzernamen und kein Passwort enthalten: den Teil vor dem @ entfernen und das API-Token im eigenen Feld angeben.',
    'host_not_ascii.host': 'Der Host in der URL des Archivservers ist nicht in ASCII geschrieben: den Namen in der Form xn--… (Punycode) eingeben.',
    'invalid_url.host_url':
      'Die Nextcloud-URL für Links ({source}) ist keine URL: die Adresse von Nextcloud in der Form http(s)://host[:port][/pfad] angeben, zum Beispiel https://cloud.example.com.',
    'unsupported_scheme.host_url': 'Die Nextcloud-URL für Links ({source}) muss mit http:// oder https:// beginnen, nicht mit {scheme}:.',
    'url_extras.host_url':
      'Die Nextcloud-URL für Links ({source}) darf weder Benutzernamen noch Passwort, Abfrage (?…) oder Fragment (#…) enthalten: nur Schema, Host, Port und Pfad von Nextcloud angeben.',

    'token_required.none': 'Es ist kein API-Token gespeichert: das API-Token des Kontos auf dem Archivserver eingeben, mit dem gesucht werden soll.',
    'token_required.unreadable':
      'Das gespeicherte API-Token kann nicht entschlüsselt werden (das Geheimnis der Instanz hat sich geändert): das API-Token erneut eingeben.',
    'token_for_other_server.origin':
      'Das gespeicherte API-Token gehört zu einem anderen Server (Schema, Host oder Port weichen ab): das Token für diesen Server eingeben.',

    'internal.connection_test': 'Der Verbindungstest ist unerwartet fehlgeschlagen; Einzelheiten stehen im Protokoll.',
    'internal.not_saved_host': 'Es wurde nichts gespeichert: {reason}. Einzelheiten stehen im Protokoll.',
    'internal.not_saved': 'Die Einstellungen konnten nicht gespeichert werden; nichts wurde geändert. Einzelheiten stehen im Protokoll.',
    'internal.not_deleted': 'Die Einstellungen konnten nicht gelöscht werden. Einzelheiten stehen im Protokoll.',
    'internal.token_changed':
      'Es wurde nichts gespeichert: Während dieser Speichervorgang die Verbindung testete, hat ein anderer Speichervorgang das gespeicherte API-Token geändert. {detail}',
    'internal.host_failed': 'das Lesen von Nextcloud ist unerwartet fehlgeschlagen',
    'host_unreachable.reason': 'die Datenbank von Nextcloud konnte nicht geöffnet oder gelesen werden (host_unreachable)',
    'host_schema.reason': 'in der Datenbank von Nextcloud fehlt eine Tabelle oder Spalte, die dieser Dienst liest (host_schema)',
    'host_config.reason': 'der Ort von Nextcloud (das Nextcloud-Verzeichnis, seine config.php oder die Datenbank-URL) ist nicht verwendbar (host_config)',
    'internal.host_read_failed': 'das Lesen der Datenbank von Nextcloud ist fehlgeschlagen ({code})',
    'unknown_archive_account.given':
      'Das Archivkonto „{account}“ gibt es in Nextcloud nicht: die ID eines vorhandenen Kontos angeben oder das Feld leer lassen, um das Konto der Synchronisierungs-App zu verwenden.',
    'unknown_archive_account.archive_owner': 'Das Archivkonto „{account}“ (archive_owner) gibt es in Nextcloud nicht: {advice}',
    'unknown_archive_account.target_user': 'Das Konto „{account}“ der Synchronisierungs-App (docs_sync target_user) gibt es in Nextcloud nicht: {advice}',
    'unknown_archive_account.none_set':
      'Es ist kein Archivkonto festgelegt (archive_owner), und die Synchronisierungs-App nennt auch keines (docs_sync target_user): {advice}',
    'unknown_archive_account.advice_why': 'eines mit setup --archive-account=ID festlegen oder target_user der Synchronisierungs-App setzen.',
    'unknown_archive_account.advice_warm_up': 'Suchen finden kein Dokument, solange keines festgelegt ist (setup --archive-account=ID).',
    'unknown_archive_account.advice_coverage': 'setup --archive-account=ID ausführen oder target_user der Synchronisierungs-App setzen.',

    'tls.untrusted':
      'Dem Zertifikat von {host} wird nicht vertraut ({code}). Dem Archivserver ein Zertifikat geben, dem Nextcloud vertraut, oder das Zertifikat seiner Zertifizierungsstelle importieren.',
    'tls_handshake.failed':
      'Eine verschlüsselte Verbindung zu {host}:{port} konnte nicht aufgebaut werden. Prüfen, ob der Archivserver auf diesem Port HTTPS spricht; falls nicht, http:// verwenden.',
    'tls_handshake.failed_code':
      'Eine verschlüsselte Verbindung zu {host}:{port} konnte nicht aufgebaut werden ({code}). Prüfen, ob der Archivserver auf diesem Port HTTPS spricht; falls nicht, http:// verwenden.',
    'unreachable.failed': 'Die Verbindung zu {host}:{port} ist fehlgeschlagen. Prüfen, ob der Archivserver läuft und von Nextcloud aus erreichbar ist.',
    'unreachable.failed_code':
      'Die Verbindung zu {host}:{port} ist fehlgeschlagen ({code}). Prüfen, ob der Archivserver läuft und von Nextcloud aus erreichbar ist.',
    'timeout.archive': 'Der Archivserver hat nicht rechtzeitig geantwortet. Prüfen, ob er läuft und nicht überlastet ist, dann erneut versuchen.',
    'unknown_host.host': 'Der Hostname {host} des Archivservers lässt sich nicht auflösen. Die URL prüfen.',
    'local_address.forward':
      'Der Archivserver leitet die Anfrage an {host} weiter, eine Adresse im lokalen Netzwerk; einer solchen Weiterleitung folgt Nextcloud nie.',
    'local_address.address':
      'Die Adresse von {host} liegt im lokalen Netzwerk, was Nextcloud ablehnt. Wenn der Archivserver im lokalen Netzwerk läuft: {turnOn}.',
    'redirect.local_switch':
      'Die URL leitet weiter (HTTP {status}); {whenOn} wird keiner Weiterleitung gefolgt. Die Adresse eingeben, an die der Archivserver weiterleitet.',
    'redirect.too_many': 'Die URL leitet mehr als fünfmal weiter (HTTP {status}). Die endgültige Adresse des Archivservers eingeben.',
    'redirect.bad_target':
      'Die URL leitet an eine Adresse weiter, die nicht schlicht HTTP oder HTTPS ist oder Zugangsdaten enthält (HTTP {status}). Die endgültige Adresse des Archivservers eingeben.',
    'local_switch.page.turn_on': '„Archivserver läuft in meinem lokalen Netzwerk“ einschalten',
    'local_switch.page.when_on': 'mit eingeschaltetem „Archivserver läuft in meinem lokalen Netzwerk“',
    'local_switch.cli.turn_on': 'setup erneut mit --allow-local ausführen',
    'local_switch.cli.when_on': 'mit --allow-local',
    'unauthorized.foreign_host':
      'Die URL leitet an {host} weiter, einen anderen Server (Schema, Host oder Port), der kein Token erhält und die Anfrage abgelehnt hat (HTTP {status}). Die Adresse eingeben, an die der Archivserver weiterleitet.',
    'unauthorized.token':
      'Der Archivserver hat das API-Token abgelehnt (HTTP {status}). Das Token eines Kontos auf dem Archivserver eingeben, das Dokumente ansehen darf.',
    'unauthorized.unsendable':
      'Das API-Token enthält Leerzeichen, Zeilenumbrüche oder andere Zeichen, die ein Token des Archivservers nie enthält. Das Token erneut eingeben.',
    'not_found.path':
      'Der Archivserver hat für {path} mit HTTP 404 geantwortet: Der Pfad der URL ist falsch. Die Adresse eingeben, unter der sich die Weboberfläche des Archivservers öffnet.',
    'http.status': 'Der Archivserver hat mit HTTP {status} geantwortet. Prüfen, ob er ordnungsgemäß läuft, dann erneut versuchen.',
    'not_paperless.answer': 'Die Antwort ist keine Dokumentliste des Archivservers ({reason}). Prüfen, ob die URL die Adresse von Paperless-ngx ist.',
    'unsupported_version.newer':
      'Der Archivserver ist neuer, als diese Version unterstützt: Er hat {announced} angekündigt und nimmt API-Version {version}, die diese Version spricht, nicht mehr an (HTTP 406). docs-unified-search aktualisieren.',
    'unsupported_version.older':
      'Der Archivserver spricht Version {version} seiner API nicht (HTTP 406): Er ist älter als Paperless-ngx 2.16. Den Archivserver aktualisieren.',
    'unsupported_version.unknown':
      'Der Archivserver nimmt Version {version} seiner API nicht an (HTTP 406): Er ist älter als Paperless-ngx 2.16 (den Archivserver aktualisieren) oder neuer, als diese Version unterstützt, und spricht Version {version} nicht mehr (docs-unified-search aktualisieren).',

    'config_access.read': '{path} kann nicht gelesen werden ({code}). {remedy}',
    'config_access.write': '{path} kann nicht geschrieben werden ({code}). {remedy}',
    'config_access.create': 'Das Verzeichnis {path} kann nicht angelegt werden ({code}). {remedy}',
    'config_access.elsewhere': 'oder mit --config-dir DIR (oder DUS_CONFIG_DIR) ein Verzeichnis angeben, das diesem Benutzer gehört',
    'config_access.this_user': 'der aktuelle Benutzer',
    'config_access.runs_as': 'Dieser Befehl läuft als {me}: ihm Zugriff geben {elsewhere}.',
    'config_access.owned_by':
      '{found} gehört {owner} mit den Rechten {mode}, und dieser Befehl läuft als {me}: ihn als Eigentümer ausführen, {me} Zugriff geben (chown/chmod) {elsewhere}.',
    'config_access.read_only': 'Das Dateisystem ist nur lesbar eingehängt: es beschreibbar einhängen {elsewhere} (auf einem beschreibbaren Dateisystem).',
    'config_access.is_directory': '{path} ist ein Verzeichnis, wo eine Datei erwartet wird: es beiseiteschieben (die Datei wird dann angelegt).',
    'config_access.not_directory': 'Ein Teil des Pfads {path} ist eine Datei, wo ein Verzeichnis erwartet wird: sie beiseiteschieben {elsewhere}.',
    'config_access.file_in_the_way':
      '{path} ist kein Verzeichnis: mit --config-dir DIR (oder DUS_CONFIG_DIR) ein Verzeichnis angeben, das diesem Benutzer gehört (oder die Datei beiseiteschieben, wenn sie dort nicht hingehört).',
    'config_access.full': 'Der Datenträger oder das Kontingent ist voll: Platz schaffen.',
    'config_access.check': 'Den Pfad und seine Rechte prüfen {elsewhere}.',

    unauthenticated: 'Mit Anmeldename und Passwort oder einem App-Passwort anmelden.',
    forbidden: 'Das darf nur die Administration.',
    password_confirmation_required: 'Zuerst das Passwort bestätigen: Die letzte Bestätigung liegt mehr als 30 Minuten zurück.',
    csrf: 'CSRF-Prüfung fehlgeschlagen: das Anfragetoken der Sitzung mitsenden oder mit HTTP Basic und dem Header OCS-APIRequest: true anmelden.',
    throttled: 'Zu viele fehlgeschlagene Anmeldeversuche von dieser Adresse. Bitte später erneut versuchen.',
    'internal.wrapper': 'Interner Fehler; Einzelheiten stehen im Protokoll.',
    'usage.multipart': 'Das Multipart-Formular konnte nicht gelesen werden.',
    'not_found.route': 'Diese Route gibt es nicht.',
    'usage.field_required': 'Das Feld {field} ist erforderlich.',
    'usage.field_too_long': 'Das Feld {field} ist länger als {max} Zeichen.',
    'usage.document_id': 'Das Feld document ist eine Dokument-ID: eine ganze Zahl ab 1 (412 oder ihre Markierung [P412]).',
    'usage.form_repeated': '{field} wurde mehr als einmal angegeben.',
    'usage.form_not_text': '{field} muss Text sein.',
    'usage.form_too_long': '{field} ist länger als {max} Zeichen.',
    'usage.form_not_flag': '{field} muss true oder false sein.',
    'usage.form_missing': 'Die Einstellungen als Formularfelder senden: url, token, archiveOwner, allowLocal, alwaysSearch.',
    'usage.form_url_required': 'Das Formularfeld url ist erforderlich.',

    'names.provider': 'Archivdokumente',
    'names.widget': 'Neu im Archiv',
    'names.widget_more': 'Für mich freigegebene Dateien',
    'names.widget_empty': 'Keine neuen Dokumente im Archiv, auf die Zugriff besteht.',
    'names.widget_unreachable': 'Der Archivserver ist derzeit nicht erreichbar.',

    'page.token_unreadable': 'Das gespeicherte Token kann nicht entschlüsselt werden: es erneut eingeben',
    'page.token_stored': 'Ein Token ist gespeichert',
    'page.token_none': 'Kein Token gespeichert',
    'page.connected': 'Verbunden',
    'page.needs_attention': 'Handlungsbedarf',
    'page.versions': 'Archivserver {version}, API {api}',
    'page.owner_missing': 'Das Archivkonto gibt es nicht: ein vorhandenes Konto angeben.',
    'page.archive_server': 'Archivserver',
    'page.url': 'URL des Archivservers',
    'page.url_hint': 'Mit Pfad, falls der Archivserver unter einem Unterpfad läuft. Ein anderer Server braucht erneut sein Token.',
    'page.token': 'API-Token',
    'page.token_keep': 'Leer lassen, um das gespeicherte Token zu behalten',
    'page.token_placeholder': 'Token des Kontos auf dem Archivserver, mit dem gesucht wird',
    'page.owner': 'Archivkonto',
    'page.owner_hint': 'Nextcloud-Konto, dessen Dateien für die Dokumente stehen. Leer bleibt es beim Konto der Synchronisierungs-App{sync}.',
    'page.allow_local': 'Archivserver läuft in meinem lokalen Netzwerk',
    'page.always_search': 'Archiv immer in die globale Suche einbeziehen',
    'page.save': 'Speichern',
    'page.disconnect': 'Trennen',
    'page.history': 'Problemverlauf',
    'page.loading': 'Wird geladen …',
    'page.clear_history': 'Verlauf leeren',
    'page.try': 'Suche ausprobieren',
    'page.try_term': 'Suchbegriff',
    'page.try_user': 'Suchen als Konto',
    'page.try_run': 'Ausprobieren',
    'page.who_document': 'Wer kann das Dokument öffnen',
    'page.who_blocked': 'Auch Konten, die eine Freigabe erreicht, die es aber nicht öffnen können',
    'page.who_run': 'Wer?',
    'page.confirm_title': 'Passwort bestätigen',
    'page.confirm_text': 'Diese Aktion erfordert das Passwort: Die letzte Bestätigung liegt mehr als 30 Minuten zurück.',
    'page.password': 'Passwort',
    'page.confirm': 'Bestätigen',
    'page.cancel': 'Abbrechen',
    // Texte, die das Skript der Administrationsseite schreibt
    'page.script.wrong_password': 'Falsches Passwort.',
    'page.script.too_many': 'Zu viele fehlgeschlagene Versuche. Später erneut versuchen.',
    'page.script.cancelled': 'Abgebrochen: Das Passwort wurde nicht bestätigt.',
    'page.script.request_failed': 'Die Anfrage ist fehlgeschlagen.',
    'page.script.history_failed': 'Der Verlauf konnte nicht geladen werden.',
    'page.script.no_problems': 'Keine Probleme aufgezeichnet.',
    'page.script.saved': 'Gespeichert: Der Archivserver hat geantwortet.',
    'page.script.disconnected': 'Getrennt: Einstellungen, Token und Verlauf gelöscht.',
    'page.script.history_cleared': 'Verlauf geleert.',
    'page.script.head_shown': 'Sichtbar',
    'page.script.head_why_not': 'Warum nicht',
    'page.script.yes': 'ja',
    'page.script.no': 'nein',
    'page.script.who_count': '{count} Konto/Konten können Dokument {id} öffnen.',
    'page.title': 'Suche im Dokumentarchiv – Administration',
    'page.heading': 'Suche im Dokumentarchiv',
    'page.log_out': 'Abmelden',
    'page.admins_only': 'Nur für die Administration',
    'page.admins_only_text': '{uid}, diese Einstellungen sind der Administration von Nextcloud vorbehalten.',
    // The verdict explanations: whole sentences, each placing the pieces (file, share, recipient) given as parameters
    'why.not_shared.cause': 'Dokument {id}: Das Archivkonto {archiveAccount} hat {file}, aber {user} kann sie nicht öffnen, denn {why}.',
    'why.not_shared.unexplained':
      'Dokument {id}: Das Archivkonto {archiveAccount} hat {file}, aber {user} kann sie nicht öffnen: die Datei oder einen übergeordneten Ordner schreibgeschützt für {user} freigeben.',
    'why.not_owned.own':
      'Dokument {id}: {user} hat {file} in den eigenen Dateien, nicht in denen des Archivkontos: Nur Dateien des Archivkontos {archiveAccount} gelten als Dokumente.',
    'why.not_owned.other': 'Dokument {id}: {user} sieht {file}, aber sie gehört {owner}: Nur Dateien des Archivkontos {archiveAccount} gelten als Dokumente.',
    'why.not_owned.unknown':
      'Dokument {id}: {user} sieht {file}, aber sie gehört einem anderen Konto: Nur Dateien des Archivkontos {archiveAccount} gelten als Dokumente.',
    'why.no_file.trash_name':
      'Dokument {id}: Das Archivkonto {archiveAccount} hat seine Datei mit [P{id}] gelöscht; {name} liegt in seinem Papierkorb: die Datei wiederherstellen (Dateien, Gelöschte Dateien), damit das Dokument erscheint{besides}.',
    'why.no_file.trash':
      'Dokument {id}: Das Archivkonto {archiveAccount} hat seine Datei mit [P{id}] gelöscht; sie liegt in seinem Papierkorb: die Datei wiederherstellen (Dateien, Gelöschte Dateien), damit das Dokument erscheint{besides}.',
    'why.no_file.unreadable':
      'Dokument {id}: Keine Datei des Archivkontos {archiveAccount}, für die die Datenbank antworten kann, trägt [P{id}] im Namen; {storages}: Eine Datei dort wird niemandem angezeigt{besides}.',
    'why.no_file.storage': 'sein externer Speicher {mountPoint} kann aus der Datenbank nicht gelesen werden ({reason})',
    'why.no_file.storages': '{first}; {next}',
    'why.no_file.none':
      'Dokument {id}: Keine Datei des Archivkontos {archiveAccount} trägt [P{id}] im Namen: Die Synchronisierung hat keine solche Datei angelegt oder benennt Dateien ohne die Markierung{besides}.',
    'why.file.path': 'die Datei {path}',
    'why.file.marker': 'eine Datei mit [P{id}]',
    'why.account_disabled':
      'das Konto von {user} ist deaktiviert, und ein deaktiviertes Konto kann sich nicht anmelden und öffnet keine Datei: es zuerst aktivieren',
    'cli.check.directory':
      'Das Verzeichnis der user_ldap-Konfiguration {prefix} ({url}) antwortet und lässt die Anmeldung als Agent zu: Seine Filter finden {accounts} Konto/Konten und {groups} Gruppe(n).',
    'cli.check.unsupported_shares':
      'Das Archivkonto teilt {rooms} Datei(en) oder Ordner mit Talk-Räumen und {boards} mit Deck-Boards: Solche Freigaben werden nicht unterstützt, und niemandem wird darüber ein Dokument angezeigt (stattdessen mit Benutzern, Gruppen oder Teams teilen).',
    'cli.check.access_rules':
      'Die Zugriffskontrolle ist aktiv mit der/den Regel(n) {rules}: Eine Datei, die sie sperren, wird den gesperrten Benutzern nicht angezeigt (why nennt die Regel).',
    'cli.check.access_rules_undecided':
      'Die Zugriffskontrolle ist aktiv mit der/den Regel(n) {rules}; {undecided} hängt/hängen von der Anfrage ab (Adresse, Uhrzeit, Browser, URL oder Upload-Größe), was sich vor der Anfrage nicht entscheiden lässt: Deren Dateien werden den möglicherweise gesperrten Benutzern nie angezeigt (why nennt die Regel).',
    'overview.access_rules_undecided':
      'Die Zugriffsregel(n) {rules} hängen von der Anfrage ab und lassen sich vor ihr nicht entscheiden: Die Dateien, die sie sperren könnten, werden diesen Benutzern nicht angezeigt.',
    // File access control: after „denn“
    'why.access_rule.blocked':
      'die Zugriffsregel „{rule}“ ({checks}) sperrt sie für {user} (die Zugriffskontrolle beantwortet das Öffnen mit 404): die Regel oder ihre Tags und Gruppen ändern',
    'why.access_rule.undecided':
      'die Zugriffsregel „{rule}“ ({checks}) sperrt sie für {user} womöglich: das hängt von der Anfrage ab (Adresse, Uhrzeit, Browser, URL oder Upload-Größe) oder von dem, was die Datenbank nicht enthält (eine Verzeichnisgruppe, ein anders gelesenes Muster oder eine unbekannte Bedingung), und lässt sich vor der Anfrage nicht entscheiden, daher wird sie nicht angezeigt',
    'why.access_rule.check.tag': 'System-Tag {tag}',
    'why.access_rule.check.not_tag': 'nicht System-Tag {tag}',
    'why.access_rule.check.group': 'Gruppe {group}',
    'why.access_rule.check.not_group': 'nicht Gruppe {group}',
    'why.access_rule.check.other': '{check} {operator} {value}',
    'why.access_rule.check.and': '{first}, {next}',
    'why.access_rule.check.missing': 'eine nicht mehr vorhandene Bedingung',
    'why.besides_disabled':
      '; außerdem ist das Konto von {user} deaktiviert, und ein deaktiviertes Konto kann sich nicht anmelden und öffnet keine Datei: es zuerst aktivieren',
    'why.directory.gone':
      'der Eintrag von {user} ist nicht mehr im LDAP-Verzeichnis, und Nextcloud lehnt die Anmeldung ab diesem Moment ab (bevor user_ldap das Konto als gelöscht markiert), daher öffnet es keine Datei: den Eintrag wiederherstellen oder das Konto entfernen',
    'why.directory.unreachable':
      'das LDAP-Verzeichnis des Kontos von {user} ist nicht erreichbar, und solange es ausfällt, lehnt Nextcloud jede Anmeldung mit Passwort ab, daher öffnet es keine Datei: das Verzeichnis wieder erreichbar machen (check nennt den Fehler)',
    'why.besides_directory': '; außerdem {why}',
    // In the genitive, as the sentences place them: „die Freigabe {node}“
    'why.node.file_path': 'der Datei {path}',
    'why.node.folder_path': 'des Ordners {path}',
    'why.node.file': 'der Datei',
    'why.node.folder': 'eines übergeordneten Ordners',
    'why.share.from': 'die Freigabe {node} durch {sharer}',
    'why.share.plain': 'die Freigabe {node}',
    'why.to.user': '{user}',
    'why.to.group': 'die Gruppe {group}',
    'why.to.team': 'das Team {team}',
    'why.to.team_member': 'das Team {team}, dem {user} angehört',
    'why.to.team_via': 'das Team {team}, dem {user} {via} angehört',
    'why.via.direct': 'direkt',
    'why.via.group': 'über die Gruppe {name}',
    'why.via.team': 'über das Team {name}',
    'why.unsupported.room': 'eine Talk-Unterhaltung',
    'why.unsupported.deck': 'ein Deck-Board',
    'why.others.one': 'eine Freigabe durch {sharers}',
    'why.others.many': 'Freigaben durch {sharers}',
    // The obstacles follow „denn“ (why.not_shared.cause), hence lower case
    'why.obstacle.sharing_off': 'die App für Freigaben (files_sharing) ist in Nextcloud deaktiviert, sodass keine einzige Freigabe ankommt: die App aktivieren',
    'why.obstacle.colliding':
      '{share} und {others} erreichen {user} alle unter {target}; Nextcloud bindet dort nur eine davon ein, und welche, geht aus der Datenbank nicht hervor: {user} benennt den unter {target} sichtbaren Ordner in Dateien um, dann bindet Nextcloud die andere unter {target} ein',
    'why.obstacle.colliding_known':
      '{share} und {others} erreichen {user} alle unter {target}; Nextcloud bindet dort nur eine davon ein, nämlich die Freigabe durch {mountedFrom} (Nextcloud bindet erst direkte Freigaben ein, dann Gruppen-, dann Team-Freigaben, und an einem Pfad bleibt die zuletzt eingebundene): {user} benennt den unter {target} sichtbaren Ordner in Dateien um, dann bindet Nextcloud die andere unter {target} ein',
    'why.obstacle.colliding_no_path':
      '{share} und {others} erreichen {user} alle unter demselben Pfad; Nextcloud bindet dort nur eine davon ein, und welche, geht aus der Datenbank nicht hervor: {user} benennt den dort sichtbaren Ordner in Dateien um, dann bindet Nextcloud die andere dort ein',
    'why.obstacle.colliding_known_no_path':
      '{share} und {others} erreichen {user} alle unter demselben Pfad; Nextcloud bindet dort nur eine davon ein, nämlich die Freigabe durch {mountedFrom} (Nextcloud bindet erst direkte Freigaben ein, dann Gruppen-, dann Team-Freigaben, und an einem Pfad bleibt die zuletzt eingebundene): {user} benennt den dort sichtbaren Ordner in Dateien um, dann bindet Nextcloud die andere dort ein',
    'why.obstacle.taken_target':
      '{share} erreicht {user} unter {target}, wo {user} eine eigene Datei oder einen eigenen Ordner hat; Nextcloud 33 verschiebt die Freigabe auf einen freien Namen daneben, sobald es die Dateien von {user} das nächste Mal einrichtet (wenn {user} Dateien öffnet oder synchronisiert), einen Namen, den die Datenbank noch nicht enthält: danach erneut fragen',
    'why.obstacle.taken_target_no_path':
      '{share} erreicht {user} unter einem Pfad, wo {user} eine eigene Datei oder einen eigenen Ordner hat; Nextcloud 33 verschiebt die Freigabe auf einen freien Namen daneben, sobald es die Dateien von {user} das nächste Mal einrichtet (wenn {user} Dateien öffnet oder synchronisiert), einen Namen, den die Datenbank noch nicht enthält: danach erneut fragen',
    'why.obstacle.colliding_renamed':
      '{share} und {others} erreichen {user} alle unter {target}; Nextcloud 33 lässt {target} der Freigabe durch {mountedFrom} und verschiebt die anderen auf einen freien Namen daneben, sobald es die Dateien von {user} das nächste Mal einrichtet (wenn {user} Dateien öffnet oder synchronisiert), einen Namen, den die Datenbank noch nicht enthält: danach erneut fragen',
    'why.obstacle.colliding_renamed_no_path':
      '{share} und {others} erreichen {user} alle unter demselben Pfad; Nextcloud 33 lässt diesen Pfad der Freigabe durch {mountedFrom} und verschiebt die anderen auf einen freien Namen daneben, sobald es die Dateien von {user} das nächste Mal einrichtet (wenn {user} Dateien öffnet oder synchronisiert), einen Namen, den die Datenbank noch nicht enthält: danach erneut fragen',
    'why.obstacle.not_member':
      'die Freigabe {node} richtet sich an die Gruppe {group}, und {user} ist kein Mitglied: {user} zur Gruppe {group} hinzufügen oder direkt für {user} freigeben',
    'why.obstacle.left': '{user} hat die Freigabe {node} für die Gruppe {group} verlassen (sie aus den eigenen Dateien entfernt): erneut für {user} freigeben',
    'why.obstacle.left_team':
      '{user} hat die Freigabe {node} für das Team {team} verlassen (sie aus den eigenen Dateien entfernt): erneut für {user} freigeben',
    'why.obstacle.not_in_team':
      'die Freigabe {node} richtet sich an das Team {team}, und {user} gehört ihm nicht an (weder direkt noch über eine Gruppe oder ein Team darin; eine noch nicht angenommene Einladung zählt nicht): {user} zum Team {team} hinzufügen oder direkt für {user} freigeben',
    'why.obstacle.teams_off':
      'die Freigabe {node} richtet sich an das Team {team}, aber die App Teams (circles) ist in Nextcloud nicht für alle aktiviert, sodass keine Team-Freigabe ankommt: die App aktivieren oder direkt für {user} freigeben',
    'why.obstacle.unsupported':
      '{node} erreicht {user} nur über {what}, deren Mitglieder dieses Produkt nicht liest (Talk-Unterhaltungen und Deck-Boards werden nicht unterstützt): direkt für {user} oder eine Gruppe von {user} freigeben',
    'why.obstacle.declined': '{user} hat {share} abgelehnt: erneut für {user} freigeben',
    'why.obstacle.pending': '{user} hat {share} noch nicht angenommen: {user} nimmt sie in Dateien unter „Freigaben“ an',
    'why.obstacle.expired': '{share} für {to} ist am {day} abgelaufen: ein späteres Ablaufdatum setzen oder erneut freigeben',
    'why.obstacle.expired_undated': '{share} für {to} ist bereits abgelaufen: ein späteres Ablaufdatum setzen oder erneut freigeben',
    'why.obstacle.disabled_sharer':
      '{share} stammt vom deaktivierten Konto {account}, und Nextcloud blendet Freigaben deaktivierter Konten aus (files_sharing hide_disabled_user_shares): dieses Konto aktivieren oder von einem aktiven Konto aus freigeben{assumed}',
    'why.obstacle.no_read': '{share} für {to} erlaubt kein Lesen: der Freigabe die Leseberechtigung erteilen',
    'why.obstacle.broken':
      '{share} ist in Nextcloud defekt (ihr Ordner liegt nicht mehr in den Dateien des Besitzers oder hat die Berechtigung zum Teilen verloren): erneut freigeben',
    'why.obstacle.unknown': '{share} erreicht {user} nicht',
    'why.assumed.unknown_release':
      '; die Version von Nextcloud ist hier nicht bekannt (keine config.php gelesen), daher wird ein nicht gesetztes hide_disabled_user_shares als Ausblenden gewertet, damit nichts erscheint, was Nextcloud ausblendet; erscheinen die Freigaben in Nextcloud doch, occ config:app:set files_sharing hide_disabled_user_shares --value no ausführen',
    'why.assumed.unread_release':
      '; das Verhalten von Nextcloud {version} ist hier nicht bekannt, daher wird ein nicht gesetztes hide_disabled_user_shares als Ausblenden gewertet, damit nichts erscheint, was Nextcloud ausblendet; erscheinen die Freigaben in Nextcloud doch, occ config:app:set files_sharing hide_disabled_user_shares --value no ausführen',

    'who.owner': 'Besitzer (die eigenen Ordner des Archivkontos)',
    'cli.check.external_unreadable':
      'Für den externen Speicher {mountPoint} des Archivkontos kann die Datenbank nicht antworten ({reason}): seine Dateien werden niemandem angezeigt.',
    'cli.check.external_reason.backend': 'ein anderes Backend als Lokal, dessen Inhalt auf einem anderen Server liegt',
    'cli.check.external_reason.credentials': 'eine Anmeldung mit eigenen oder Login-Zugangsdaten jedes Benutzers',
    'cli.check.external_reason.placeholder': 'ein Platzhalter wie $user in seiner Konfiguration: jeder Benutzer erhält einen anderen Speicher',
    'cli.check.external_reason.no datadir': 'kein Ort eingerichtet',
    'who.external': 'externer Speicher, eingebunden unter {mountPoint}',
    'who.user_share': 'direkte Freigabe von {node} durch {owner}',
    'who.user_reshare': 'direkte Freigabe von {node} (von {sharer} weitergeteilt aus der Freigabe durch {owner})',
    'who.group_share': 'Gruppe {group}: Freigabe von {node} durch {owner}',
    'who.group_reshare': 'Gruppe {group}: Freigabe von {node} (von {sharer} weitergeteilt aus der Freigabe durch {owner})',
    'who.team_share': 'Team {team}: Freigabe von {node} durch {owner}',
    'who.team_reshare': 'Team {team}: Freigabe von {node} (von {sharer} weitergeteilt aus der Freigabe durch {owner})',
    'who.team_share_via': 'Team {team} ({via}): Freigabe von {node} durch {owner}',
    'who.team_reshare_via': 'Team {team} ({via}): Freigabe von {node} (von {sharer} weitergeteilt aus der Freigabe durch {owner})',

    // Ort, Schema und Verbindung der Nextcloud-Datenbank
    'host_config.unknown': 'Nextcloud ist nicht bekannt: --nextcloud VERZEICHNIS oder --host-db URL angeben (setup speichert es für spätere Befehle).',
    'host_config.dbtype': "{file}: dbtype '{dbtype}' wird nicht unterstützt, nur sqlite3, pgsql und mysql.",
    'host_config.no_directory': 'Das Nextcloud-Verzeichnis {path} gibt es nicht, oder es ist kein Verzeichnis (--nextcloud bzw. DUS_NEXTCLOUD prüfen).',
    'host_config.no_config': '{file} fehlt: --nextcloud muss das Installationsverzeichnis von Nextcloud nennen (das mit config/config.php).',
    'host_config.no_array': '{file} legt $CONFIG nicht als Array fest.',
    'host_config.not_php': '{file} ist kein gültiges PHP: {detail}.',
    'host_config.empty': '{file} enthält einen leeren Wert.',
    'host_config.empty_key': "{file} enthält einen leeren Wert für '{key}'.",
    'host_schema.unreadable': 'Die Datenbank von Nextcloud konnte nicht gelesen werden, obwohl jede benötigte Tabelle und Spalte vorhanden ist.',
    'host_schema.missing': 'Der Datenbank von Nextcloud fehlt eine Tabelle oder Spalte, die gelesen wird: {detail}',
    'host_unreachable.checking': 'Die Datenbank von Nextcloud konnte beim Prüfen ihrer Tabellen nicht gelesen werden: {detail}',
    'host_unreachable.lost': 'Die Verbindung zur Datenbank von Nextcloud ist abgebrochen ({detail}).',
    'host_unreachable.directory':
      'Das Verzeichnis der user_ldap-Konfiguration {prefix} ({url}) ist nicht erreichbar ({detail}): Solange es ausfällt, wird keinem LDAP-Konto etwas angezeigt, und Nextcloud lehnt jede Anmeldung mit Passwort ab.',
    'host_unreachable.directory_bind':
      'Das Verzeichnis der user_ldap-Konfiguration {prefix} ({url}) antwortet, lehnt aber die Anmeldung oder Suche des Agenten ab ({detail}): Keinem LDAP-Konto wird etwas angezeigt; DN oder Passwort des Agenten in user_ldap korrigieren.',
    // Die Zeilen der Übersichtsprüfung der Administration
    'overview.heading': 'Suche im Dokumentarchiv:',
    'overview.correct_it': 'In den Einstellungen der App korrigieren: {link}',
    'overview.no_server': 'Es ist kein Archivserver eingerichtet.',
    'overview.token_unreadable': 'Das gespeicherte API-Token kann nicht entschlüsselt werden: das Token erneut eingeben.',
    'overview.token_none': 'Es ist kein API-Token gespeichert: das Token eingeben.',
    'overview.token_other_server': 'Das gespeicherte API-Token gilt für einen anderen Server: das Token erneut eingeben.',
    'overview.no_account': 'Es ist kein Archivkonto festgelegt, und die Synchronisierungs-App nennt keines.',
    'overview.unknown_account': 'Das Archivkonto {account} gibt es nicht.',
    'overview.host_unreadable': 'Nextcloud konnte nicht gelesen werden, um das Archivkonto zu prüfen ({code}).',
    'overview.search_failed': 'Eine Suche ist fehlgeschlagen, und seitdem hat keine funktioniert.',
    'overview.test_failed_at':
      'Der Verbindungstest von check oder test ist fehlgeschlagen ({code}, {at}), und seitdem hat weder ein Test noch eine Suche funktioniert.',
    'overview.search_failed_at': 'Eine Suche ist fehlgeschlagen ({code}, {at}), und seitdem hat keine funktioniert.',
    'overview.connected': 'Verbunden mit dem Archivserver unter {url} ({version} bei seiner letzten Antwort).',
    'overview.version': 'Version {version}',
    'overview.version_api': 'Version {version}, API-Version {api}',
    'overview.version_unknown': 'Version unbekannt',
    'overview.version_unknown_api': 'Version unbekannt, API-Version {api}',
    'overview.newer_release':
      'Paperless-ngx {version}: neuer als die Versionen, mit denen diese Version geprüft wurde (bis {newest}); Suchen folgen den Regeln von {newest}.',
    // Die eigenen Zeilen der Kommandozeile um Tabellen und Erklärungen (search, why, who)
    'cli.note': 'Hinweis:',
    'cli.search.head_id': 'ID',
    'cli.search.head_title': 'Titel',
    'cli.search.head_verdict': 'Ergebnis',
    'cli.search.head_file': 'Datei',
    'cli.search.found': 'Der Archivserver hat {found} Dokument(e) gefunden; {shown} der {listed} aufgeführten{range} sind für {user} sichtbar.',
    'cli.search.range': ' ({from}–{to} seines Ergebnisses)',
    'cli.search.none': 'Der Archivserver hat zu diesem Suchbegriff kein Dokument gefunden.',
    'cli.search.past_end': 'Das Ergebnis des Archivservers enthält ab --cursor {offset} kein Dokument mehr.',
    'cli.search.file_legend':
      "Datei: der Pfad, den {user} sieht, mit (Name's), wenn die Datei einem anderen Konto gehört; Name:Pfad ist ein Pfad in den eigenen Dateien jenes Kontos, den {user} nicht öffnen kann.",
    'cli.search.explain_hint': 'Mit --explain erneut ausführen, um zu erfahren, warum die übrigen nicht erscheinen.',
    'cli.search.more': 'Weitere: mit --cursor {next} erneut ausführen, für die nächsten {count}.',
    'cli.why.verdict': 'Dokument {id} für {user}: {verdict}{at}.',
    'cli.why.at': ', unter {path}',
    'cli.why.archive_not_asked': 'why fragt den Archivserver nicht: Hat er kein Dokument {id} (danach suchen), ist hier alles in Ordnung.',
    'cli.who.head_account': 'Konto',
    'cli.who.head_path': 'Pfad',
    'cli.who.head_through': 'Über',
    'cli.who.count': '{count} Konto/Konten können Dokument {id} öffnen ({files}, von {archiveAccount}).',
  };
  return built;
}
