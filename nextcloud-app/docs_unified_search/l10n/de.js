OC.L10N.register(
    "docs_unified_search",
    {
    "Document archive search" : "Suche im Dokumentarchiv",
    "Archive documents in Nextcloud's search, smart picker and dashboard, filtered by what each user can open" : "Archivdokumente in der Suche, im Smart Picker und im Dashboard von Nextcloud, gefiltert danach, was das jeweilige Konto öffnen darf",
    "A thin bridge to the docs-unified-search service: it registers the search provider, the smart-picker provider, the dashboard widget, the admin settings section and the overview check, and forwards every call, signed, to the service, where every decision is made." : "Eine schlanke Brücke zum Dienst docs-unified-search: Die App meldet den Suchanbieter, den Smart-Picker-Anbieter, das Dashboard-Widget, den Abschnitt der Administrationseinstellungen und die Übersichtsprüfung an und leitet jeden Aufruf signiert an den Dienst weiter, der alle Entscheidungen trifft.",
    "Archive documents" : "Archivdokumente",
    "New in the archive" : "Neu im Archiv",
    "The docs-unified-search service did not answer." : "Der Dienst docs-unified-search hat nicht geantwortet.",
    "The docs-unified-search service did not answer: check that it runs, that service_url names it and that both sides hold the same bridge secret." : "Der Dienst docs-unified-search hat nicht geantwortet: Prüfe, ob er läuft, ob service_url auf ihn verweist und ob beide Seiten dasselbe Bridge-Geheimnis haben.",
    "The docs-unified-search service %s did not answer. Check that it runs, that service_url names it and that both sides hold the same bridge secret." : "Der Dienst docs-unified-search unter %s hat nicht geantwortet. Prüfe, ob er läuft, ob service_url auf ihn verweist und ob beide Seiten dasselbe Bridge-Geheimnis haben."
},
"nplurals=2; plural=(n != 1);");
