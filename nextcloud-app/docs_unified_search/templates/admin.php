<?php
/** @var array{form: ?string, serviceUrl: string, settingsUrl: string, confirmUrl: string} $_ */
\OCP\Util::addScript('docs_unified_search', 'admin-settings');
\OCP\Util::addStyle('docs_unified_search', 'admin-settings');
?>
<div id="dus-admin" class="section" data-settings-url="<?php p($_['settingsUrl']); ?>" data-confirm-url="<?php p($_['confirmUrl']); ?>">
	<h2>Document archive search</h2>
	<?php if ($_['form'] === null) : ?>
		<p class="dus-unreachable" role="alert">The docs-unified-search service <?php p($_['serviceUrl']); ?> did not answer. Check that it runs, that <code>service_url</code> names it and that both sides hold the same bridge secret.</p>
	<?php else : ?>
		<?php print_unescaped($_['form']); ?>
	<?php endif; ?>
</div>
