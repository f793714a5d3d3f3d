import { useTranslation } from 'react-i18next';
import { mailtoHref } from '../components/mailto-href';
import { PageMeta } from '../components/page-meta';
import { MarketingIcon } from '../components/marketing/marketing-icons';
import { OFFICES } from '../content/offices';
import { ContactForm } from './contact/contact-form';
import { WaitingToSend } from '../components/waiting-to-send';
import { OfficeMap } from './contact/office-map';
import m from '../components/marketing/marketing.module.css';
import s from './contact.module.css';

export default function ContactPage() {
  const { t } = useTranslation('contact');
  return (
    <main id="main" tabIndex={-1}>
      <PageMeta title={t('metaTitle')} description={t('metaDescription')} path="/contact" />

      <section className={s.hero} aria-labelledby="contact-title">
        <div className={m.inner}>
          <div className={s.heroInner}>
            <p className={m.eyebrow}>{t('eyebrow')}</p>
            <h1 id="contact-title" className={s.title}>
              {t('title')}
            </h1>
            <p className={s.lead}>{t('intro')}</p>
          </div>
          <div className={s.mapWrap}>
            <OfficeMap offices={OFFICES} />
            <p className={s.mapHint}>{t('map.hint')}</p>
          </div>
        </div>
      </section>

      <section className={s.body}>
        <div className={`${m.inner} ${s.columns}`}>
          <div>
            <h2 className={s.officesTitle}>{t('officesTitle')}</h2>
            <ul className={s.offices} data-testid="offices">
              {OFFICES.map((o) => (
                <li key={o.id} className={s.office}>
                  <h3 className={s.officeCity}>
                    {t(`offices.${o.id}.city`)}, {t(`offices.${o.id}.country`)}
                    {o.isHeadquarters && <span className={s.hq}>{t('map.hq')}</span>}
                  </h3>
                  <p className={s.officeLine}>
                    <MarketingIcon name="pin" size={18} />
                    <span>{o.address}</span>
                  </p>
                  <p className={s.officeLine}>
                    <MarketingIcon name="phone" size={18} />
                    <a href={`tel:${o.phone.replace(/\s+/g, '')}`}>{o.phone}</a>
                  </p>
                  <p className={s.officeLine}>
                    <MarketingIcon name="mail" size={18} />
                    <a href={mailtoHref(o.email)}>{o.email}</a>
                  </p>
                  <p className={s.officeLine}>
                    <MarketingIcon name="clock" size={18} />
                    <span>{t('hours')}</span>
                  </p>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <ContactForm />
            <WaitingToSend kind="contact" />
          </div>
        </div>
      </section>
    </main>
  );
}
